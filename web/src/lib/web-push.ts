// This browser's side of web push: whether it can receive the app's notifications at all, and its
// subscription (PushManager) made with the server's key. An iPhone or iPad receives push only in
// the app added to the home screen; a browser without a service worker (a development build) or
// the Push API cannot.
import { isAppleMobile, runningInstalled } from './install-prompt';

export type PushSupport = 'supported' | 'needs-home-screen' | 'unsupported';

export function pushSupport(): PushSupport {
  const api = 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
  if (isAppleMobile() && !runningInstalled()) return 'needs-home-screen';
  return api ? 'supported' : 'unsupported';
}

/** The app's service worker registration, or null when none runs (development builds). */
async function registration(): Promise<ServiceWorkerRegistration | null> {
  return (await navigator.serviceWorker.getRegistration()) ?? null;
}

/** This browser's current subscription, if any. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  const reg = await registration();
  return reg ? reg.pushManager.getSubscription() : null;
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const sameKey = (a: ArrayBuffer | null | undefined, b: Uint8Array) =>
  !!a && a.byteLength === b.length && new Uint8Array(a).every((byte, i) => byte === b[i]);

/** A subscription made with `publicKey`: the current one when it was, else a new one (after
 * `fresh`, or when the server's key changed, the old one is dropped first). */
export async function subscribePush(publicKey: string, fresh = false): Promise<PushSubscription> {
  const reg = await registration();
  if (!reg)
    throw new Error('The app’s service worker is not running. Reload the page and try again.');
  const key = keyBytes(publicKey);
  const current = await reg.pushManager.getSubscription();
  if (current && !fresh && sameKey(current.options.applicationServerKey, key)) return current;
  await current?.unsubscribe();
  return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
}
