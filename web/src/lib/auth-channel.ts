// Tells the member's other tabs of this browser that they signed out, at once (BroadcastChannel);
// other browsers and devices hear of it through the event stream (member-events.ts).
const CHANNEL = 'crw-auth';

export type AuthMessage = { type: 'signed-out'; from: string };

/** This tab, among the browser's: a tab hears its own messages on the channel too. */
const THIS_TAB = Math.random().toString(36).slice(2);

export function announceSignedOut(): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage({ type: 'signed-out', from: THIS_TAB } satisfies AuthMessage);
  channel.close();
}

/** Calls `onSignedOut` when another tab signs out; returns the unsubscribe. */
export function listenForSignOut(onSignedOut: () => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => undefined;
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent<AuthMessage>) => {
    if (event.data?.type === 'signed-out' && event.data.from !== THIS_TAB) onSignedOut();
  };
  return () => channel.close();
}
