// A listening connection that goes half-open (the peer vanished without closing: nothing arrives,
// nothing fails) is noticed within seconds by its missing heartbeat and rebuilt; the process
// forgets what it may have missed, and hears ended sessions again (docs/security.md#sessions).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openDatabase } from '../src/infra/db/database';
import { setUpSchema } from '../src/setup-schema';
import { cookieOf, makeMemberKeys, registerBody, signIn, type MemberKeys } from './helpers/members';
import { tcpProxy, type TcpProxy } from './helpers/tcp-proxy';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { createPostgresDatabase, testDbKind } from './helpers/test-database';
import { until } from './helpers/until';

// PGlite is one embedded session in this process: there is no connection to go half-open.
describe.runIf(testDbKind === 'postgres')('a half-open listening connection', () => {
  let t: TestApp;
  let proxy: TcpProxy;
  let direct: pg.Client;
  let dropDatabase: () => Promise<void>;
  let databaseName: string;
  let keys: MemberKeys;

  beforeAll(async () => {
    const created = await createPostgresDatabase();
    dropDatabase = created.drop;
    const url = new URL(created.url);
    databaseName = url.pathname.slice(1);
    direct = new pg.Client({ connectionString: created.url });
    await direct.connect();
    proxy = await tcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.port = String(proxy.port);
    const database = await openDatabase({
      kind: 'postgres',
      url: url.toString(),
      poolSize: 10,
      listenerHeartbeat: { intervalMs: 200, timeoutMs: 1_000 },
    });
    await setUpSchema(database);
    t = await buildTestApp({
      chain: false,
      database: { database, drop: () => database.close() },
      // Sessions are remembered long: only a notice (or a missed one) makes this process forget.
      env: { REQUIRE_EMAIL_CONFIRMATION: 'false', SESSION_CHECK_CACHE_SECONDS: '300' },
    });
    keys = await makeMemberKeys();
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: await registerBody(t.app, keys),
    });
    expect(registered.statusCode, registered.body).toBe(201);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await t?.services.database.close();
    await direct?.end();
    await proxy?.close();
    await dropDatabase?.();
  });

  const newSession = async () =>
    cookieOf((await signIn(t.app, keys.email, keys.authSecret)).headers['set-cookie']);
  const status = async (cookie: string) =>
    (await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })).statusCode;
  /** Ends the cookie's session from another connection, as another process or an operator would. */
  const endElsewhere = async (cookie: string) => {
    const value = decodeURIComponent(/crw\.session_token=([^;]+)/.exec(cookie)![1]!);
    const token = value.slice(0, value.lastIndexOf('.'));
    const ended = await direct.query('DELETE FROM "session" WHERE token = $1', [token]);
    expect(ended.rowCount).toBe(1);
  };
  const listenerPorts = async () =>
    (
      await direct.query<{ client_port: number }>(
        `SELECT client_port FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'LISTEN%'`,
        [databaseName],
      )
    ).rows.map((r) => r.client_port);

  it('is noticed and rebuilt within seconds; ended sessions are refused again', async () => {
    const first = await newSession();
    expect(await status(first)).toBe(200); // remembered here now
    const deaf = await listenerPorts();
    expect(deaf.length).toBeGreaterThanOrEqual(2); // session_ended and member_events
    expect(proxy.blackHole(deaf)).toBe(deaf.length);

    // Ended while this process could not hear it: refused once the deaf connection is noticed.
    await endElsewhere(first);
    await until(async () => (await status(first)) === 401, {
      timeoutMs: 10_000,
      what: 'the session ended while the listening connection was half-open refused',
    });
    await until(async () => (await listenerPorts()).filter((p) => !deaf.includes(p)).length >= 2, {
      timeoutMs: 10_000,
      what: 'the listening connections made again',
    });

    // The rebuilt connections hear: a remembered session ended elsewhere is refused at once.
    const second = await newSession();
    expect(await status(second)).toBe(200);
    await endElsewhere(second);
    await until(async () => (await status(second)) === 401, {
      timeoutMs: 5_000,
      what: 'a session ended after the rebuild refused',
    });
  }, 60_000);
});
