// Probe (security review of the session check): a session that ends while a request is being checked is
// remembered afterwards. SessionCheck asks better-auth about a token it does not remember; if the
// session row is read, then deleted (sign-out) and the deletion heard, before better-auth's answer
// is back in JavaScript, the answer is remembered anyway — nothing like MemberCache's epoch guards
// the session memory — and the signed-out cookie is accepted for SESSION_CHECK_CACHE_SECONDS (30 s).
//
// On PostgreSQL this needs only that the SELECT's result is processed after the DELETE committed
// and its NOTIFY arrived (two pool connections, a busy event loop). On PGlite (one session) we let
// the database go after the SELECT ran and hold its result back until after the sign-out: the
// database did its part in the same order PostgreSQL would.
import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  TransactionSettings,
} from 'kysely';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERY_SESSION, SessionCache } from '../src/infra/identity/session';
import {
  joinAndConfirm,
  makeMemberKeys,
  ORIGIN,
  signedInCookie,
  type MemberKeys,
} from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { openTestDatabase, testDbKind, type TestDatabase } from './helpers/test-database';
import { until } from './helpers/until';

/** Holds back the result of the next session-by-token SELECT (once armed) until `release()`. */
class LateAnswer {
  armed = false;
  #ran!: () => void;
  #release!: () => void;
  ran = new Promise<void>((r) => (this.#ran = r));
  #gate = new Promise<void>((r) => (this.#release = r));
  arm() {
    this.armed = true;
  }
  release() {
    this.#release();
  }
  async maybeHold(query: CompiledQuery, releaseConnection: () => Promise<void>) {
    if (!this.armed || !/^select/i.test(query.sql) || !/from "session"/i.test(query.sql)) return;
    this.armed = false;
    // The database has answered and is free for others (as a PostgreSQL pool would be); only the
    // answer reaches JavaScript late.
    await releaseConnection();
    this.#ran();
    await this.#gate;
  }
}

function lateDialect(dialect: Dialect, late: LateAnswer): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: (): Driver => {
      const driver = dialect.createDriver();
      const original = new WeakMap<DatabaseConnection, DatabaseConnection>();
      const released = new WeakSet<DatabaseConnection>();
      const unwrap = (c: DatabaseConnection) => original.get(c) ?? c;
      const release = async (c: DatabaseConnection) => {
        if (released.has(c)) return;
        released.add(c);
        await driver.releaseConnection(c);
      };
      return {
        init: () => driver.init(),
        destroy: () => driver.destroy(),
        acquireConnection: async () => {
          const connection = await driver.acquireConnection();
          // A pool hands the same connection out again: it may be released again then.
          released.delete(connection);
          const wrapped: DatabaseConnection = {
            executeQuery: async (query: CompiledQuery) => {
              const result = await connection.executeQuery(query);
              await late.maybeHold(query, () => release(connection));
              return result as never;
            },
            streamQuery: (query: CompiledQuery, chunkSize?: number) =>
              connection.streamQuery(query, chunkSize),
          };
          original.set(wrapped, connection);
          return wrapped;
        },
        beginTransaction: (c: DatabaseConnection, settings: TransactionSettings) =>
          driver.beginTransaction(unwrap(c), settings),
        commitTransaction: (c: DatabaseConnection) => driver.commitTransaction(unwrap(c)),
        rollbackTransaction: (c: DatabaseConnection) => driver.rollbackTransaction(unwrap(c)),
        releaseConnection: (c: DatabaseConnection) => release(unwrap(c)),
      };
    },
  };
}

let t: TestApp;
let testDb: TestDatabase;
let member: MemberKeys;
let late = new LateAnswer();

beforeAll(async () => {
  testDb = await openTestDatabase();
  const database = {
    ...testDb.database,
    dialect: lateDialect(testDb.database.dialect, {
      maybeHold: (q, r) => late.maybeHold(q, r),
    } as LateAnswer),
  };
  t = await buildTestApp({ chain: false, database: { ...testDb, database } });
  member = await makeMemberKeys();
  await joinAndConfirm(t.app, t.services.database.db, member);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await testDb?.drop();
});

const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });

/** Whether every request with the cookie for `ms` is accepted (none refused with 401). */
async function stillAcceptedAfter(cookie: string, ms: number): Promise<boolean> {
  return until(async () => (await me(cookie)).statusCode === 401, {
    timeoutMs: ms,
    intervalMs: 100,
  }).then(
    () => false,
    async () => (await me(cookie)).statusCode === 200,
  );
}

/** The session token of a signed-in cookie. */
const tokenOf = (cookie: string) =>
  decodeURIComponent(
    cookie
      .split('; ')
      .find((c) => c.includes('session_token'))!
      .split('=')[1]!,
  ).split('.')[0]!;

/** Whether this process has heard, since the call, that the cookie's session ended (and forgot it). */
function heardEnded(cookie: string): () => boolean {
  const key = SessionCache.key(tokenOf(cookie));
  let heard = false;
  const off = t.services.sessions.cache.onEnded((ended) => {
    if (ended !== key && ended !== EVERY_SESSION) return;
    heard = true;
    off();
  });
  return () => heard;
}

describe(`probe: a session ended during its own check (${testDbKind})`, () => {
  it('a signed-out cookie is not accepted afterwards, even if a request checking it was in flight', async () => {
    late = new LateAnswer();
    const cookie = await signedInCookie(t.app, member);
    late.arm();
    const inFlight = me(cookie); // asks better-auth: the SELECT runs, its answer is late
    await late.ran;
    const out = await t.app.inject({
      method: 'POST',
      url: '/auth/sign-out',
      headers: { cookie, origin: ORIGIN },
      payload: {},
    });
    expect(out.statusCode).toBe(200);
    const token = tokenOf(cookie);
    const { rows } = await sql`SELECT id FROM "session" WHERE token = ${token}`.execute(
      t.services.database.db,
    );
    expect(rows).toEqual([]);
    late.release();
    expect((await inFlight).statusCode).toBe(200); // began before the sign-out: fair enough
    // The session is gone from the database, yet this process goes on accepting it (for up to
    // SESSION_CHECK_CACHE_SECONDS), as every request with the cookie shows.
    const rightAfter = (await me(cookie)).statusCode;
    const acceptedTwoSecondsLater = await stillAcceptedAfter(cookie, 2_000);
    expect({ rightAfter, acceptedTwoSecondsLater }).toEqual({
      rightAfter: 401,
      acceptedTwoSecondsLater: false,
    });
  });

  it('a session deleted by SQL (account deletion, every process) while it was being checked is not accepted afterwards', async () => {
    late = new LateAnswer();
    const cookie = await signedInCookie(t.app, member);
    late.arm();
    const inFlight = me(cookie);
    await late.ran;
    const heard = heardEnded(cookie);
    await sql`DELETE FROM "session"`.execute(t.services.database.db);
    // The NOTIFY is heard and forgotten (nothing to forget yet).
    await until(heard, { timeoutMs: 5_000, what: 'the session_ended notice heard' });
    late.release();
    expect((await inFlight).statusCode).toBe(200);
    expect((await me(cookie)).statusCode).toBe(401);
  });
});
