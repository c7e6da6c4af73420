// What a push carries (server/src/domain/notifications/push-messages.ts) and where its click goes:
// read in the service worker (sw.ts), which shows it as a notification. Anything unexpected is
// shown plainly rather than dropped (a push the browser gets must show a notification), and a
// click opens only a path of this app, never another site.

export interface PushMessage {
  title: string;
  body: string;
  /** A path of this app, e.g. /claim. */
  url: string;
}

const FALLBACK: PushMessage = {
  title: 'REME Wallet',
  body: 'Something new is waiting for you in the app.',
  url: '/dashboard',
};

/** An app path: starts with one slash (not //, not a backslash trick), no scheme. */
export function appPath(value: unknown): string {
  return typeof value === 'string' && /^\/(?![/\\])[^\s]*$/.test(value) && value.length <= 300
    ? value
    : FALLBACK.url;
}

const text = (value: unknown, max: number): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.slice(0, max) : null;

/** The push's JSON text, as the notification shows it. */
export function readPushMessage(json: string | null): PushMessage {
  let data: Record<string, unknown> = {};
  try {
    const parsed: unknown = json ? JSON.parse(json) : null;
    if (parsed && typeof parsed === 'object') data = parsed as Record<string, unknown>;
  } catch {
    return FALLBACK;
  }
  return {
    title: text(data.title, 200) ?? FALLBACK.title,
    body: text(data.body, 500) ?? FALLBACK.body,
    url: appPath(data.url),
  };
}
