// The per-request session check: at most one indexed query — the session by its token
// joined to its user — and none while the process remembers better-auth's answer; yet exact: a
// session that ends is forgotten at once, in this process and in every other one.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingDialect } from './helpers/counting-dialect';
import {
  joinAndConfirm,
  makeMemberKeys,
  ORIGIN,
  signedInCookie,
  signIn,
  type MemberKeys,
} from './helpers/members';
import { passGate } from '../src/testing/signup-gate';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { openTestDatabase, testDbKind, type TestDatabase } from './helpers/test-database';
import { until } from './helpers/until';

let t: TestApp;
/** A second server process on the same database (its own pool, its own memory of sessions). */
let other: TestApp;
let testDb: TestDatabase;
let member: MemberKeys;
/** Every statement better-auth ran (it builds its own Kysely from the dialect it is given). */
const authQueries: string[] = [];

beforeAll(async () => {
  testDb = await openTestDatabase();
  const database = {
    ...testDb.database,
    dialect: countingDialect(testDb.database.dialect, authQueries),
  };
  t = await buildTestApp({ chain: false, database: { ...testDb, database } });
  other = await buildTestApp({ chain: false, sameDatabaseAs: t });
  member = await makeMemberKeys();
  await joinAndConfirm(t.app, t.services.database.db, member);
}, 60_000);
afterAll(async () => {
  await other?.close();
  await t?.close();
  await testDb?.drop();
});

const me = (app: TestApp, cookie: string) =>
  app.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });

/** Polls until `app` refuses `cookie`; the time it took (ms), or a failure after 3 s. */
async function refusedWithin(app: TestApp, cookie: string): Promise<number> {
  const start = Date.now();
  await until(
    async () => {
      const { statusCode } = await me(app, cookie);
      if (statusCode !== 401) expect(statusCode).toBe(200);
      return statusCode === 401;
    },
    { timeoutMs: 3_000, intervalMs: 10, what: 'the ended session refused' },
  );
  return Date.now() - start;
}

describe(`the session check (${testDbKind})`, () => {
  it('costs one indexed query the first time, none while remembered', async () => {
    const cookie = await signedInCookie(t.app, member);
    authQueries.length = 0;
    expect((await me(t, cookie)).statusCode).toBe(200);
    expect(authQueries).toHaveLength(1);
    expect(authQueries[0]).toMatch(/from "session".*join "user"/is);
    expect(authQueries[0]).toMatch(/where "session"\."token" = \$1/i);
    for (const url of ['/api/me', '/api/referrals/balance', '/api/claim']) {
      authQueries.length = 0;
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie } });
      expect(res.statusCode, res.body).toBe(200);
      expect(authQueries, url).toHaveLength(0);
    }
    const index = await t.services.database.db
      .selectFrom('pg_indexes' as never)
      .select('indexdef' as never)
      .where('tablename' as never, '=', 'session' as never)
      .execute();
    expect(JSON.stringify(index)).toMatch(/UNIQUE INDEX.*\(token\)/);
  });

  it('refuses a remembered token whose signature is wrong, and a cookie of an unknown token', async () => {
    const cookie = await signedInCookie(t.app, member);
    expect((await me(t, cookie)).statusCode).toBe(200);
    const [name, value] = cookie
      .split('; ')
      .find((c) => c.includes('session_token'))!
      .split('=') as [string, string];
    const [token, signature] = decodeURIComponent(value).split('.') as [string, string];
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    expect((await me(t, `${name}=${encodeURIComponent(`${token}.${flipped}`)}`)).statusCode).toBe(
      401,
    );
    expect((await me(t, `${name}=${encodeURIComponent(token)}`)).statusCode).toBe(401);
    expect(
      (await me(t, `${name}=${encodeURIComponent(`${'x'.repeat(32)}.${signature}`)}`)).statusCode,
    ).toBe(401);
    expect((await me(t, `${name}=%E0%A4%A`)).statusCode).toBe(401);
    expect((await me(t, cookie)).statusCode).toBe(200);
  });

  it('a sign-out in one process ends the session in this one and in the other at once', async () => {
    const cookie = await signedInCookie(t.app, member);
    expect((await me(t, cookie)).statusCode).toBe(200);
    expect((await me(other, cookie)).statusCode).toBe(200);
    const out = await t.app.inject({
      method: 'POST',
      url: '/auth/sign-out',
      headers: { cookie, origin: ORIGIN },
      payload: {},
    });
    expect(out.statusCode).toBe(200);
    expect((await me(t, cookie)).statusCode).toBe(401);
    expect(await refusedWithin(other, cookie)).toBeLessThan(1_000);
  });

  it('a password reset ends every session of the member in every process', async () => {
    const cookies = [await signedInCookie(t.app, member), await signedInCookie(other.app, member)];
    for (const cookie of cookies)
      for (const app of [t, other]) expect((await me(app, cookie)).statusCode).toBe(200);
    await t.app.inject({
      method: 'POST',
      url: '/auth/request-password-reset',
      headers: { origin: ORIGIN },
      payload: {
        email: member.email,
        redirectTo: '/reset-password',
        gate: await passGate(t.app, 'reset'),
      },
    });
    const { text_body: text } = await t.services.database.db
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('to_address', '=', member.email)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const token = /\/auth\/reset-password\/([^?\s]+)/.exec(text)![1]!;
    const newSecret = 'b'.repeat(64);
    const reset = await other.app.inject({
      method: 'POST',
      url: '/auth/reset-password',
      headers: { origin: ORIGIN },
      payload: { token, newPassword: newSecret },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    for (const cookie of cookies)
      for (const app of [t, other]) expect(await refusedWithin(app, cookie)).toBeLessThan(1_000);
    member = { ...member, authSecret: newSecret };
    expect((await signIn(t.app, member.email, newSecret)).statusCode).toBe(200);
  });

  it('a session deleted by SQL of our own (as deleting an account cascades) ends in every process', async () => {
    const cookie = await signedInCookie(t.app, member);
    for (const app of [t, other]) expect((await me(app, cookie)).statusCode).toBe(200);
    await sql`DELETE FROM "session" WHERE "userId" = (SELECT id FROM "user" WHERE email = ${member.email})`.execute(
      t.services.database.db,
    );
    for (const app of [t, other]) expect(await refusedWithin(app, cookie)).toBeLessThan(1_000);
  });

  it('the notice of an ended session carries the SHA-256 of its token, not the token', async () => {
    const heard: string[] = [];
    const unlisten = await t.services.database.listen('session_ended', (payload) =>
      heard.push(payload),
    );
    try {
      const cookie = await signedInCookie(t.app, member);
      const token = decodeURIComponent(
        cookie
          .split('; ')
          .find((c) => c.includes('session_token'))!
          .split('=')[1]!,
      ).split('.')[0]!;
      await t.app.inject({
        method: 'POST',
        url: '/auth/sign-out',
        headers: { cookie, origin: ORIGIN },
        payload: {},
      });
      const hash = createHash('sha256').update(token).digest('hex');
      await expect.poll(() => heard, { timeout: 3_000 }).toContain(hash);
      expect(heard.join()).not.toContain(token);
    } finally {
      await unlisten();
    }
  });
});
