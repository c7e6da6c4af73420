// What the service worker (src/sw.ts) may keep: the app shell only — the page (index.html) and the
// built JavaScript and CSS. Everything else, above all the API with the member's keystore, sign-in,
// the chain relay, the dev mailbox and the event stream, passes to the network untouched.

/** The build's shell: its version (changes with any file) and the files to keep. */
export interface AppShell {
  version: string;
  files: string[];
}

/** Paths the service worker never answers or keeps, whatever else they look like. */
const NEVER = ['/api', '/auth', '/rpc', '/dev'];

export type ShellRequest = 'page' | 'asset' | null;

/** Whether a request is a page of the app (answered from the network, the shell when offline), a
 * built asset (kept: its name changes with its content), or none of the shell's business. */
export function shellRequest(
  request: { method: string; mode: string; url: string },
  origin: string,
): ShellRequest {
  if (request.method !== 'GET') return null;
  const url = new URL(request.url);
  if (url.origin !== origin) return null;
  if (NEVER.some((prefix) => url.pathname === prefix || url.pathname.startsWith(`${prefix}/`)))
    return null;
  if (request.mode === 'navigate') return 'page';
  if (/^\/assets\/[^/]+\.(js|css)$/.test(url.pathname) && url.search === '') return 'asset';
  return null;
}
