import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { cloneMemberKeys, cookieOf, makeMemberKeys, ORIGIN, registerBody } from './helpers/members';
import { testDbKind } from './helpers/test-database';

let t: TestApp;
let url: string;

beforeAll(async () => {
  t = await buildTestApp({ chain: false, env: { PUBLIC_URL: ORIGIN } });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

async function registerAndConfirm(
  keys: Awaited<ReturnType<typeof makeMemberKeys>>,
  referralCode?: string,
) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/register',
    payload: await registerBody(t.app, keys, referralCode ? { referralCode } : {}),
  });
  const userId = res.json().userId as string;
  const mail = await t.services.database.db
    .selectFrom('mail_outbox')
    .select('text_body')
    .where('to_address', '=', keys.email)
    .executeTakeFirstOrThrow();
  const link = new URL(/https?:\/\/\S+\/auth\/verify-email\S*/.exec(mail.text_body)![0]);
  const confirmed = await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
  return { userId, cookie: cookieOf(confirmed.headers['set-cookie']) };
}

/** Reads an SSE stream, resolving each time an event with the given name arrives. */
function eventReader(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return async function next(name: string, timeoutMs: number): Promise<number> {
    const started = Date.now();
    for (;;) {
      const match = new RegExp(`event: ${name}\\n`).exec(buffer);
      if (match) {
        buffer = buffer.slice(match.index + match[0].length);
        return Date.now() - started;
      }
      const chunk = await Promise.race([
        reader.read(),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`no ${name} event within ${timeoutMs} ms`)), timeoutMs),
        ),
      ]);
      if (chunk.done) throw new Error('stream ended');
      buffer += decoder.decode(chunk.value);
    }
  };
}

it(`pushes "changed" to the referrer's open stream within 2 s of a referred member's confirmation (${testDbKind})`, async () => {
  const base = await makeMemberKeys();
  const a = await registerAndConfirm(base);
  const code = (
    await t.services.database.db
      .selectFrom('profiles')
      .select('referral_code')
      .where('id', '=', a.userId)
      .executeTakeFirstOrThrow()
  ).referral_code!;

  const controller = new AbortController();
  const stream = await fetch(`${url}/api/events`, {
    headers: { cookie: a.cookie },
    signal: controller.signal,
  });
  expect(stream.status).toBe(200);
  expect(stream.headers.get('content-type')).toContain('text/event-stream');
  const next = eventReader(stream.body!);
  await next('ready', 2_000);

  await registerAndConfirm(await cloneMemberKeys(base), code);
  await next('changed', 2_000);

  // A care action for A reaches the same stream.
  await t.app.inject({
    method: 'POST',
    url: '/api/operator/care-actions',
    headers: { authorization: `Bearer ${t.services.operatorKey}` },
    payload: { userId: a.userId, caps: 5, description: 'x', idempotencyKey: `sse-${a.userId}` },
  });
  await next('changed', 2_000);
  controller.abort();
});

it('refuses a stream without a session', async () => {
  const res = await fetch(`${url}/api/events`);
  expect(res.status).toBe(401);
  expect(await res.json()).toEqual({ code: 'unauthorized', message: 'User not authenticated' });
});
