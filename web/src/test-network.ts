// The network as the web's unit tests see it. There is no server: a test serves each answer its
// screen needs, and a request that nothing answers fails the test with its method and path (as
// MSW's `onUnhandledRequest: 'error'` would), instead of meeting a made-up answer.
import { vi } from 'vitest';

const unanswered: string[] = [];

/** A JSON answer with a status. */
export const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

/** Replaces `fetch` with one that answers each request from `answer(path, init)`: a Response as it
 * is, any other value as JSON with status 200. Where that gives undefined, the request is refused:
 * `fetch` rejects, and the test fails after it (test-setup.ts). */
export function stubFetch(answer: (path: string, init?: RequestInit) => unknown) {
  vi.stubGlobal('fetch', async (url: RequestInfo | URL, init?: RequestInit) => {
    const path = String(url);
    const body = answer(path, init);
    if (body === undefined) {
      const request = `${init?.method ?? 'GET'} ${path}`;
      unanswered.push(request);
      throw new TypeError(`No answer served for ${request}`);
    }
    return body instanceof Response ? body : json(body);
  });
}

/** The requests refused since the last call (test-setup.ts fails the test on any). */
export const takeUnanswered = () => unanswered.splice(0);
