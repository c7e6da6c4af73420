// The per-request session check (issue 13): one indexed query — the session by its token joined
// to its user — and exact: a signed-out or reset session ends at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingDialect } from './helpers/counting-dialect';
import { joinAndConfirm, makeMemberKeys, signedInCookie, type MemberKeys } from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { openTestDatabase, testDbKind, type TestDatabase } from './helpers/test-database';

let t: TestApp;
let testDb: TestDatabase;
let member: MemberKeys;
/** Every statement better-auth ran (it builds its own Kysely from the dialect it is given). */
const authQueries: string[] = [];

beforeAll(async () => {
  testDb = await openTestDatabase();
  const database = { ...testDb.database, dialect: countingDialect(testDb.database.dialect, authQueries) };
  t = await buildTestApp({ database: { ...testDb, database } });
  member = await makeMemberKeys();
  await joinAndConfirm(t.app, t.services.database.db, member);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await testDb?.drop();
});

describe(`the session check (${testDbKind})`, () => {
  it('costs one query per request: the session by its token, joined to its user', async () => {
    const cookie = await signedInCookie(t.app, member);
    for (const url of ['/api/me', '/api/referrals/balance', '/api/claim']) {
      authQueries.length = 0;
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie } });
      expect(res.statusCode, res.body).toBe(200);
      expect(authQueries, url).toHaveLength(1);
      expect(authQueries[0]).toMatch(/from "session".*join "user"/is);
      expect(authQueries[0]).toMatch(/where "session"\."token" = \$1/i);
    }
    const index = await t.services.database.db
      .selectFrom('pg_indexes' as never)
      .select('indexdef' as never)
      .where('tablename' as never, '=', 'session' as never)
      .execute();
    expect(JSON.stringify(index)).toMatch(/UNIQUE INDEX.*\(token\)/);
  });
});
