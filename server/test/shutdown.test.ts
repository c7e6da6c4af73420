// Graceful shutdown under load: SIGTERM stops accepting, lets the requests in flight finish, then
// closes the database and the chain — members see no 5xx and the log shows no error.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieOf, makeMemberKeys, registerBody } from './helpers/members';
import { spawnServer, waitForHealthy } from './helpers/server-process';
import { freePort } from './helpers/smtp-peer';
import { fixtureWebDist } from './helpers/test-app';
import { createPostgresDatabase, testDbKind } from './helpers/test-database';
import { until } from './helpers/until';

let storage: Record<string, string>;
let dropDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => {
  storage = {
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'crw-data-')),
    WEB_DIST_DIR: fixtureWebDist(),
    REQUIRE_EMAIL_CONFIRMATION: 'false',
  };
  if (testDbKind === 'postgres') {
    const created = await createPostgresDatabase();
    dropDatabase = created.drop;
    storage.DATABASE_URL = created.url;
  }
});
afterAll(async () => dropDatabase?.());

describe(`SIGTERM under load (${testDbKind})`, () => {
  it('finishes what is in flight: no 5xx, no error in the log, exit 0', async () => {
    const server = spawnServer({ ...storage, PORT: String(await freePort()) });
    await waitForHealthy(server);
    const keys = await makeMemberKeys();
    const registered = await fetch(`${server.url}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(await registerBody(server.url, keys)),
    });
    expect(registered.status).toBe(201);
    const signIn = await fetch(`${server.url}/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ email: keys.email, password: keys.authSecret }),
    });
    const cookie = cookieOf(signIn.headers.getSetCookie());
    expect(cookie).toContain('crw.session_token=');

    const statuses = new Map<number, number>();
    let refused = 0;
    let running = true;
    // Half the clients give up on what they asked as the signal comes (a load generator ending, a
    // closed tab): their handlers are still at work with no connection left to wait for.
    const quitter = new AbortController();
    const paths = ['/api/me', '/api/referrals/network', '/api/config', '/api/health'];
    const worker = async (n: number) => {
      for (let i = n; running; i++) {
        try {
          const res = await fetch(`${server.url}${paths[i % paths.length]}`, {
            headers: { cookie },
            ...(n % 2 ? { signal: quitter.signal } : {}),
          });
          await res.arrayBuffer();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        } catch {
          refused += 1; // the listener is closed: a client (or a load balancer) goes elsewhere
          await server.exited; // and asks this server nothing more
        }
      }
    };
    const load = Array.from({ length: 64 }, (_, n) => worker(n));
    // The load under way before the signal: twice as many answers as there are clients.
    const answers = () => [...statuses.values()].reduce((sum, n) => sum + n, 0);
    await until(() => answers() >= 128, { timeoutMs: 30_000, what: '128 answers under load' });
    quitter.abort();
    server.child.kill('SIGTERM');
    const code = await server.exited;
    running = false;
    await Promise.all(load);

    const answered = [...statuses.entries()];
    console.info(
      `[shutdown] answers by status ${JSON.stringify(Object.fromEntries(answered))}, refused connections ${refused}`,
    );
    expect(code, `the server's exit code; its log:\n${server.output()}`).toBe(0);
    expect(answered.filter(([status]) => status >= 500)).toEqual([]);
    expect(statuses.get(200)).toBeGreaterThan(50);
    const errors = server
      .output()
      .split('\n')
      .filter((line) => /"level":(50|60)/.test(line) || /destroyed|Error:/.test(line));
    expect(errors).toEqual([]);
  }, 120_000);

  it('lets handlers finish whose clients already left: a load generator ends, SIGTERM follows at once', async () => {
    const server = spawnServer({ ...storage, PORT: String(await freePort()) });
    await waitForHealthy(server);
    const keys = await makeMemberKeys();
    await fetch(`${server.url}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(await registerBody(server.url, keys)),
    });
    const signIn = await fetch(`${server.url}/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ email: keys.email, password: keys.authSecret }),
    });
    const cookie = cookieOf(signIn.headers.getSetCookie());
    // autocannon ends by dropping its connections with requests still queued at the server.
    const result = await autocannon({
      url: `${server.url}/api/me`,
      connections: 100,
      duration: 3,
      headers: { cookie },
    });
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    console.info(`[shutdown] ${result.requests.total} requests, then SIGTERM`);
    expect(result.non2xx).toBe(0);
    const errors = server
      .output()
      .split('\n')
      .filter((line) => /"level":(50|60)/.test(line) || /destroyed/.test(line));
    expect(errors).toEqual([]);
  }, 120_000);
});
