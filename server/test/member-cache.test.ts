// Each process keeps a member's /api/me row until a member_events notice says it changed
// (domain/members/member-cache.ts). What must hold: repeated reads cost no query; a write is
// seen at once by the process that answered it and within moments by every other; a read that
// overlapped a change is not kept; the follower's progress is current; a wallet saved shows.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinAndConfirm, makeMemberKeys, signedInCookie, type MemberKeys } from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { openTestDatabase, testDbKind, type TestDatabase } from './helpers/test-database';
import { until } from './helpers/until';

let t: TestApp;
let other: TestApp;
let testDb: TestDatabase;
let member: MemberKeys;
let cookie: string;

beforeAll(async () => {
  testDb = await openTestDatabase();
  // The followers do not poll meanwhile: one test sets the follower's progress by hand.
  const env = { CHAIN_POLL_INTERVAL_MS: '3600000' };
  t = await buildTestApp({ database: testDb, env });
  other = await buildTestApp({ sameDatabaseAs: t, env });
  member = await makeMemberKeys();
  await joinAndConfirm(t.app, t.services.database.db, member);
  cookie = await signedInCookie(t.app, member);
}, 60_000);
afterAll(async () => {
  await other?.close();
  await t?.close();
  await testDb?.drop();
});

const me = async (app: TestApp, headers: Record<string, string> = {}) => {
  const res = await app.app.inject({
    method: 'GET',
    url: '/api/me',
    headers: { cookie, ...headers },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    caps: { careActions: number; total: number };
    wallet: { keystore: string };
    tokens: { asOf: { ageSeconds: number | null } };
  };
};
const credit = (app: TestApp, caps: number) =>
  app.app.inject({
    method: 'POST',
    url: '/api/operator/care-actions',
    headers: { authorization: `Bearer ${app.services.operatorKey}` },
    payload: {
      email: member.email,
      caps,
      description: 'Visited a neighbour',
      idempotencyKey: `visit-${Math.random()}`,
    },
  });

/** Polls `app` until the member's care-action CAPs read `caps`; the ms it took, or fails after 3 s. */
async function careActionsWithin(app: TestApp, caps: number): Promise<number> {
  const start = Date.now();
  await until(async () => (await me(app)).caps.careActions === caps, {
    timeoutMs: 3_000,
    intervalMs: 10,
    what: `${caps} care-action CAPs`,
  }).catch(async (error: Error) => {
    throw new Error(
      `${error.message}: ${(await me(app)).caps.careActions} fresh ${(await me(app, { 'cache-control': 'no-cache' })).caps.careActions}`,
    );
  });
  return Date.now() - start;
}

describe(`a member's details as each process keeps them (${testDbKind})`, () => {
  it('answers again from its copy; `Cache-Control: no-cache` reads the database', async () => {
    const before = (await me(t)).caps.careActions;
    // A change no notice announces (nothing of ours writes so): only a read of the database sees it.
    await sql`UPDATE user_token_distributions SET activity_caps = activity_caps + 1 WHERE user_id = (SELECT id FROM "user" WHERE email = ${member.email})`.execute(
      t.services.database.db,
    );
    expect((await me(t)).caps.careActions).toBe(before);
    expect((await me(t, { 'cache-control': 'no-cache' })).caps.careActions).toBe(before + 1);
    expect((await me(t)).caps.careActions).toBe(before + 1);
  });

  it('a credit answered by one process is in its next read at once, and in the other within a second', async () => {
    const before = (await me(t)).caps.careActions;
    expect((await me(other)).caps.careActions).toBe(before);
    expect((await credit(t, 30)).statusCode).toBe(201);
    expect((await me(t)).caps.careActions).toBe(before + 30);
    expect(await careActionsWithin(other, before + 30)).toBeLessThan(1_000);
    expect((await credit(other, 5)).statusCode).toBe(201);
    expect((await me(other)).caps.careActions).toBe(before + 35);
    expect(await careActionsWithin(t, before + 35)).toBeLessThan(1_000);
  });

  it('a change made by SQL of our own (a notice at commit) reaches both processes', async () => {
    const before = (await me(t)).caps.careActions;
    await me(other);
    await sql`SELECT credit_reward(id, ${`sql-${Math.random()}`}, 'care_action', 7::bigint, 0::numeric, NULL::smallint, NULL, 'by SQL') FROM "user" WHERE email = ${member.email}`.execute(
      t.services.database.db,
    );
    for (const app of [t, other])
      expect(await careActionsWithin(app, before + 7)).toBeLessThan(1_000);
  });

  it('20 concurrent credits and reads across both processes end with every process showing the sum', async () => {
    const before = (await me(t)).caps.careActions;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => [credit(i % 2 ? t : other, 1), me(t), me(other)]).flat(),
    );
    for (const app of [t, other])
      expect(await careActionsWithin(app, before + 20)).toBeLessThan(1_000);
  });

  it("the follower's progress is read apart: its age moves without any member change", async () => {
    await me(t);
    await sql`UPDATE chain_follower_state SET synced_at = now() - interval '1 hour'`.execute(
      t.services.database.db,
    );
    // Read again within its second (FollowerProgressReader), long before the member's copy lapses.
    await until(async () => ((await me(t)).tokens.asOf.ageSeconds ?? 0) >= 3_599, {
      timeoutMs: 3_000,
      intervalMs: 50,
      what: "the follower's age read again",
    });
  });
});
