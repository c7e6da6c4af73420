// PostgreSQL going away under load (the connections dropped and new ones refused, as in a restart):
// requests fail fast with 503 { code, message }, never 500, and succeed again once it is back,
// without restarting the server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../src/infra/db/database';
import { MEMBER_EVENTS_CHANNEL } from '../src/infra/db/member-notices';
import { setUpSchema } from '../src/setup-schema';
import { cookieOf, makeMemberKeys, registerBody } from './helpers/members';
import { tcpProxy, type TcpProxy } from './helpers/tcp-proxy';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { createPostgresDatabase, testDbKind } from './helpers/test-database';
import { until } from './helpers/until';

/** Counts the connection attempts of LISTEN clients (a client with a notification handler, as
 * database.listen makes) that failed, until `restore`. */
function countFailedListenerConnects(): { failed: () => number; restore: () => void } {
  const proto = pg.Client.prototype as unknown as { connect: (...args: unknown[]) => unknown };
  const connect = proto.connect;
  let failed = 0;
  proto.connect = function (this: pg.Client, ...args: unknown[]) {
    const result = connect.apply(this, args);
    if (this.listenerCount('notification') > 0 && result instanceof Promise)
      result.catch(() => (failed += 1));
    return result;
  };
  return { failed: () => failed, restore: () => void (proto.connect = connect) };
}

describe.runIf(testDbKind === 'postgres')('PostgreSQL restarted under load', () => {
  let t: TestApp;
  let proxy: TcpProxy;
  let dropDatabase: () => Promise<void>;
  let cookie: string;
  let userId: string;

  beforeAll(async () => {
    const created = await createPostgresDatabase();
    dropDatabase = created.drop;
    const url = new URL(created.url);
    proxy = await tcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.port = String(proxy.port);
    const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 10 });
    await setUpSchema(database);
    t = await buildTestApp({
      chain: false,
      database: { database, drop: () => database.close() },
      env: { REQUIRE_EMAIL_CONFIRMATION: 'false' },
    });
    const keys = await makeMemberKeys();
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: await registerBody(t.app, keys),
    });
    expect(registered.statusCode).toBe(201);
    userId = registered.json().userId as string;
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/auth/sign-in/email',
      headers: { origin: t.services.config.publicUrl },
      payload: { email: keys.email, password: keys.authSecret },
    });
    cookie = cookieOf(signIn.headers['set-cookie']);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await t?.services.database.close();
    await proxy?.close();
    await dropDatabase?.();
  });

  const paths = ['/api/me', '/api/referrals/network', '/api/referrals/balance', '/api/health'];
  // `Cache-Control: no-cache`: /api/me reads the database, not the process's copy of the member
  // (decision 0013), which may answer for a moment after the cut — safe, since nothing can change
  // or end a session while the database is away; every request of the burst needs the database.
  async function burst(rounds: number) {
    const answers: Array<{ status: number; code?: string; ms: number }> = [];
    await Promise.all(
      Array.from({ length: 20 }, async (_, n) => {
        for (let i = 0; i < rounds; i++) {
          const started = Date.now();
          const res = await t.app.inject({
            method: 'GET',
            url: paths[(n + i) % paths.length]!,
            headers: { cookie, 'cache-control': 'no-cache' },
          });
          answers.push({
            status: res.statusCode,
            code: (res.json() as { code?: string }).code,
            ms: Date.now() - started,
          });
        }
      }),
    );
    return answers;
  }

  it('answers 503 service_unavailable quickly while it is down, and 200 again once it is back', async () => {
    expect((await burst(2)).every((a) => a.status === 200)).toBe(true);

    const listeners = countFailedListenerConnects();
    await proxy.cut();
    const down = await burst(5);
    const statuses = [...new Set(down.map((a) => a.status))].sort();
    console.info(
      `[outage] statuses while down ${JSON.stringify(statuses)}, slowest ${Math.max(...down.map((a) => a.ms))} ms`,
    );
    expect(statuses).toEqual([503]);
    expect(down.filter((a) => a.code !== undefined && a.code !== 'service_unavailable')).toEqual(
      [],
    );
    expect(Math.max(...down.map((a) => a.ms))).toBeLessThan(5_000); // never hangs past the pool's connect timeout
    expect(
      t.logs.filter((l) => l.level === 50 && String(l.msg) !== 'database unavailable'),
    ).toEqual([]);

    // A restart takes a few seconds: longer than one reconnect attempt of the realtime listeners
    // (member events' and sessions', each trying again every second).
    try {
      await until(() => listeners.failed() >= 2, {
        timeoutMs: 10_000,
        what: 'the realtime listeners failing to reconnect',
      });
    } finally {
      listeners.restore();
    }
    await proxy.restore();
    await expect
      .poll(
        async () =>
          (await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })).statusCode,
        { timeout: 15_000 },
      )
      .toBe(200);
    expect((await burst(2)).every((a) => a.status === 200)).toBe(true);

    // The realtime listener (its own connection) is back too: a member's change reaches their tabs.
    let heard = 0;
    const unsubscribe = t.services.events.subscribe(userId, () => (heard += 1));
    try {
      await expect
        .poll(
          async () => {
            await sql`SELECT pg_notify(${MEMBER_EVENTS_CHANNEL}, ${userId})`.execute(
              t.services.database.db,
            );
            return heard;
          },
          { timeout: 15_000, interval: 500 },
        )
        .toBeGreaterThan(0);
    } finally {
      unsubscribe();
    }
  }, 120_000);
});
