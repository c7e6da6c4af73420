// The account page's settings: the member's sessions — listed without their tokens,
// ended one by one or all but this one, never another member's — the profile the greetings use,
// and the event stream that tells an open page its session ended.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cloneMemberKeys,
  joinAndConfirm,
  makeMemberKeys,
  ORIGIN,
  signedInCookie,
  type MemberKeys,
} from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';
import { until } from './helpers/until';

let t: TestApp;
let other: TestApp;
let url: string;
let base: MemberKeys;

beforeAll(async () => {
  t = await buildTestApp({ chain: false, env: { PUBLIC_URL: ORIGIN } });
  other = await buildTestApp({ chain: false, sameDatabaseAs: t });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = await makeMemberKeys();
}, 60_000);
afterAll(async () => {
  await other?.close();
  await t?.close();
});

/** A confirmed member with no session (confirming signs in; that session is ended here). */
async function newMember(): Promise<MemberKeys> {
  const keys = await cloneMemberKeys(base);
  const userId = await joinAndConfirm(t.app, t.services.database.db, keys);
  await sql`DELETE FROM session WHERE "userId" = ${userId}`.execute(t.services.database.db);
  return keys;
}

const CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const signInFrom = async (keys: MemberKeys, userAgent: string) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/sign-in/email',
    headers: { origin: ORIGIN, 'user-agent': userAgent },
    payload: { email: keys.email, password: keys.authSecret },
  });
  expect(res.statusCode).toBe(200);
  return ([] as string[])
    .concat(res.headers['set-cookie'] ?? [])
    .map((c) => c.split(';')[0])
    .join('; ');
};
const me = (app: TestApp, cookie: string) =>
  app.app.inject({
    method: 'GET',
    url: '/api/me',
    headers: { cookie, 'cache-control': 'no-cache' },
  });
const security = (cookie: string) =>
  t.app.inject({ method: 'GET', url: '/api/account/security', headers: { cookie } });
const send = (
  method: 'POST' | 'PUT' | 'DELETE',
  path: string,
  cookie: string | undefined,
  payload?: object,
) =>
  t.app.inject({
    method,
    url: path,
    headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
    ...(payload ? { payload } : {}),
  });

describe(`account settings (${testDbKind})`, () => {
  it('lists where the member is signed in, without tokens, and ends one of them at once in every process', async () => {
    const keys = await newMember();
    const here = await signedInCookie(t.app, keys);
    const phone = await signInFrom(keys, CHROME);
    expect((await me(other, phone)).statusCode).toBe(200); // remembered by the other process too
    const list = await security(here);
    expect(list.statusCode).toBe(200);
    const { sessions, twoFactorEnabled } = list.json() as {
      sessions: { id: string; device: string; current: boolean }[];
      twoFactorEnabled: boolean;
    };
    expect(twoFactorEnabled).toBe(false);
    expect(sessions).toHaveLength(2);
    expect(sessions[0]!.current).toBe(true);
    const phoneSession = sessions.find((s) => !s.current)!;
    expect(phoneSession.device).toBe('Chrome on Android');
    const token = decodeURIComponent(phone.split('session_token=')[1]!).split('.')[0]!;
    expect(list.body).not.toContain(token);

    expect((await send('DELETE', `/api/account/sessions/${phoneSession.id}`, here)).json()).toEqual(
      { signedOut: 1 },
    );
    expect((await me(t, phone)).statusCode).toBe(401);
    await expect
      .poll(async () => (await me(other, phone)).statusCode, { timeout: 3_000 })
      .toBe(401);
    expect((await me(t, here)).statusCode).toBe(200);
    expect(
      (await send('DELETE', `/api/account/sessions/${phoneSession.id}`, here)).statusCode,
    ).toBe(404);
  });

  it("never lists or ends another member's session", async () => {
    const [a, b] = [await newMember(), await newMember()];
    const [cookieA, cookieB] = [await signedInCookie(t.app, a), await signedInCookie(t.app, b)];
    const sessionOfB = (await security(cookieB)).json().sessions[0].id as string;
    expect(
      (await security(cookieA)).json().sessions.map((s: { id: string }) => s.id),
    ).not.toContain(sessionOfB);
    expect((await send('DELETE', `/api/account/sessions/${sessionOfB}`, cookieA)).statusCode).toBe(
      404,
    );
    expect((await me(t, cookieB)).statusCode).toBe(200);
    // No session, a malformed id, another method.
    expect(
      (await send('DELETE', `/api/account/sessions/${sessionOfB}`, undefined)).statusCode,
    ).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/account/security' })).statusCode).toBe(
      401,
    );
    expect(
      (await send('DELETE', `/api/account/sessions/${'x'.repeat(65)}`, cookieA)).statusCode,
    ).toBe(400);
    expect(
      (await send('POST', '/api/account/sessions/sign-out-others', undefined)).statusCode,
    ).toBe(401);
  });

  it('signs out everywhere but here', async () => {
    const keys = await newMember();
    const here = await signedInCookie(t.app, keys);
    const elsewhere = [await signInFrom(keys, CHROME), await signInFrom(keys, 'curl/8')];
    expect((await send('POST', '/api/account/sessions/sign-out-others', here)).json()).toEqual({
      signedOut: 2,
    });
    for (const cookie of elsewhere) expect((await me(t, cookie)).statusCode).toBe(401);
    expect((await me(t, here)).statusCode).toBe(200);
    expect((await security(here)).json().sessions).toHaveLength(1);
  });

  it('changes the name and username the greetings use, and refuses what is not a name', async () => {
    const keys = await newMember();
    const cookie = await signedInCookie(t.app, keys);
    expect((await me(other, cookie)).json().fullName).not.toBe('Grace Hopper');
    const saved = await send('PUT', '/api/account/profile', cookie, {
      fullName: '  Grace Hopper ',
      username: 'grace',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // The other process's copy of the member is replaced (its cache hears the notice).
    await expect
      .poll(
        async () =>
          (await other.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })).json()
            .fullName,
        { timeout: 3_000 },
      )
      .toBe('Grace Hopper');
    expect((await me(t, cookie)).json()).toMatchObject({
      fullName: 'Grace Hopper',
      username: 'grace',
    });
    for (const body of [
      { fullName: 'x', username: '' },
      { fullName: 'x'.repeat(101), username: 'a' },
      { fullName: 'a\u0000b', username: 'a' },
      { fullName: 'x' },
      { username: 42, fullName: 'x' },
    ]) {
      expect(
        (await send('PUT', '/api/account/profile', cookie, body)).statusCode,
        JSON.stringify(body),
      ).toBe(400);
    }
    expect(
      (await send('PUT', '/api/account/profile', undefined, { fullName: 'x', username: 'y' }))
        .statusCode,
    ).toBe(401);
  });

  it("takes the user-details call's first-time-referral flag and answers it back, for referred and unreferred members alike", async () => {
    const referrer = await newMember();
    const code = (await me(t, await signedInCookie(t.app, referrer))).json().referralCode as string;
    const friend = await cloneMemberKeys(base);
    await joinAndConfirm(t.app, t.services.database.db, friend, code);
    const [friendCookie, referrerCookie] = [
      await signedInCookie(t.app, friend),
      await signedInCookie(t.app, referrer),
    ];
    const ask = (cookie: string, query: string) =>
      t.app.inject({ method: 'GET', url: `/api/me${query}`, headers: { cookie } });
    expect((await ask(friendCookie, '?firstTimeReferral=true')).json().firstTimeReferral).toBe(
      true,
    );
    expect((await ask(referrerCookie, '?firstTimeReferral=true')).json().firstTimeReferral).toBe(
      true,
    );
    expect((await ask(friendCookie, '')).json().firstTimeReferral).toBe(false);
    expect((await ask(friendCookie, '?firstTimeReferral=false')).json().firstTimeReferral).toBe(
      false,
    );
    expect((await ask(friendCookie, '?firstTimeReferral=yes')).statusCode).toBe(400);
  });

  it('tells an open page its session ended (another tab signed out, or it was signed out from elsewhere)', async () => {
    const keys = await newMember();
    const cookie = await signedInCookie(t.app, keys);
    const otherDevice = await signInFrom(keys, CHROME);
    const controller = new AbortController();
    const stream = await fetch(`${url}/api/events`, {
      headers: { cookie: otherDevice },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    let text = '';
    let ended = false;
    void (async () => {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
        text += new TextDecoder().decode(chunk.value);
      ended = true;
    })().catch(() => undefined); // aborted below
    await until(() => text.includes('event: ready'), { what: 'the stream opening' });
    // The session is marked as seen when its page opens the stream.
    const id = (await security(cookie))
      .json()
      .sessions.find((s: { current: boolean }) => !s.current).id as string;
    expect((await send('DELETE', `/api/account/sessions/${id}`, cookie)).statusCode).toBe(200);
    // Told, and the stream closed, by the session's end itself: well within the stream's first
    // heartbeat (25 s) and the process's memory of the session (30 s), the only later moments a
    // stream could otherwise learn of it.
    await until(() => ended, { timeoutMs: 10_000, what: () => `the stream closing (got ${text})` });
    expect(text).toMatch(/event: ready[\s\S]*event: signed-out/);
    expect(text).not.toContain(': keep-alive');
    controller.abort();
    // A notice for the member after the stream ended (a password change ends the other sessions,
    // then announces the change) writes nothing to it: once, that crashed the server.
    const userId = (await me(t, cookie)).json().id as string;
    await sql`SELECT pg_notify('member_events', ${userId})`.execute(t.services.database.db);
    await t.services.events.fence(); // the notice has been heard and handed to every listener
    expect((await me(t, cookie)).statusCode).toBe(200);
  });

  it('a stream signed out and then told of a change stays quiet (no write after its end)', async () => {
    const keys = await newMember();
    const cookie = await signedInCookie(t.app, keys);
    const otherDevice = await signInFrom(keys, CHROME);
    const userId = (await me(t, cookie)).json().id as string;
    const stream = await fetch(`${url}/api/events`, { headers: { cookie: otherDevice } });
    const reader = stream.body!.getReader();
    await reader.read(); // ready
    // Both in one transaction, as the password change does: the session goes, then the notice.
    await t.services.database.db.transaction().execute(async (trx) => {
      await sql`DELETE FROM session WHERE "userId" = ${userId} AND token = ${decodeURIComponent(otherDevice.split('session_token=')[1]!).split('.')[0]!}`.execute(
        trx,
      );
      await sql`SELECT pg_notify('member_events', ${userId})`.execute(trx);
    });
    let text = '';
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += new TextDecoder().decode(chunk.value);
    }
    expect(text).toContain('event: signed-out');
    await t.services.events.fence(); // the notice has been heard and handed to every listener
    expect((await me(t, cookie)).statusCode).toBe(200);
  });
});
