// Tells the member's other tabs of this browser that they signed out, at once (BroadcastChannel);
// other browsers and devices hear of it through the event stream (member-events.ts).
const CHANNEL = 'crw-auth';

export type AuthMessage = { type: 'signed-out' };

export function announceSignedOut(): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage({ type: 'signed-out' } satisfies AuthMessage);
  channel.close();
}

/** Calls `onSignedOut` when another tab signs out; returns the unsubscribe. */
export function listenForSignOut(onSignedOut: () => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => undefined;
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent<AuthMessage>) => {
    if (event.data?.type === 'signed-out') onSignedOut();
  };
  return () => channel.close();
}
