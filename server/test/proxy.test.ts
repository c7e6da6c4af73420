// The production topology (deploy/): HAProxy with deploy/haproxy.cfg in front of two server
// processes (TRUST_PROXY=127.0.0.1, as deploy/crw@.service starts them) on one PostgreSQL and a
// separate chain node. Event streams pass unbuffered and reach members on either process; the
// client's own X-Forwarded-For counts for nothing; a process shutting down is taken out without a
// failed request; a process killed outright costs its open streams a reconnection, after which
// they hear events again. PostgreSQL only: PGlite belongs to one process, and the embedded default
// runs without a proxy. Needs Debian's haproxy (installed by .ci/run).
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/infra/db/database';
import { MemberStream, type StreamEvent } from '../src/testing/event-stream-client';
import { deployWithOps } from '../src/testing/ops-deploy';
import { hasHaproxy, startProxy, type Proxy } from '../src/testing/proxy';
import { seedSignedInMembers, type SeededMember } from '../src/testing/seeded-members';
import { startHardhatNode, type HardhatNode } from './helpers/hardhat-node';
import { migratedPostgresTemplate } from './helpers/postgres-clone';
import { freePort } from './helpers/ports';
import { spawnServer, waitForHealthy, type ServerProcess } from './helpers/server-process';
import { createPostgresDatabase, testDbKind } from './helpers/test-database';
import { until } from './helpers/until';

const OPERATOR_KEY = 'proxy-test-operator-key-0123456789abcdef';
const AUTH_SECRET = 'proxy-test-auth-secret-0123456789abcdef0123';
const runs = testDbKind === 'postgres' && (hasHaproxy() || Boolean(process.env.CI));

let node: HardhatNode;
let drop: (() => Promise<void>) | undefined;
let env: Record<string, string>;
const servers: ServerProcess[] = [];
let proxy: Proxy;
let members: SeededMember[];
const streams: MemberStream[] = [];

async function startProcess(port: number): Promise<ServerProcess> {
  const server = spawnServer({ ...env, PORT: String(port) });
  await waitForHealthy(server);
  return server;
}

beforeAll(async () => {
  if (!runs) return;
  node = await startHardhatNode();
  const created = await createPostgresDatabase(migratedPostgresTemplate());
  drop = created.drop;
  const database = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 2 });
  members = await seedSignedInMembers(database.db, 40, AUTH_SECRET, 'proxy');
  await database.close();
  env = {
    ...(await deployWithOps(node, mkdtempSync(path.join(tmpdir(), 'crw-proxy-data-')))),
    DATABASE_URL: created.url,
    AUTH_SECRET,
    OPERATOR_API_KEY: OPERATOR_KEY,
    TRUST_PROXY: '127.0.0.1',
    SHUTDOWN_DRAIN_SECONDS: '5',
    PUBLIC_URL: 'http://127.0.0.1:9',
  };
  const ports = [await freePort(), await freePort()];
  for (const port of ports) servers.push(await startProcess(port));
  proxy = await startProxy(servers.map((s) => new URL(s.url).host));
  env.PUBLIC_URL = proxy.url;
}, 180_000);

afterAll(async () => {
  for (const stream of streams) stream.close();
  await proxy?.stop();
  for (const server of servers) await server.stop();
  await node?.stop();
  await drop?.();
});

/** Opens a stream for each member, through the proxy; resolves when all are connected. */
async function openStreams(of: SeededMember[]) {
  const events = new Map<string, StreamEvent[]>();
  const opened = of.map((member) => {
    events.set(member.id, []);
    const stream = new MemberStream({
      url: proxy.url,
      cookie: member.cookie,
      onEvent: (e) => events.get(member.id)!.push(e),
    });
    streams.push(stream);
    return stream;
  });
  await until(() => [...events.values()].every((list) => list.some((e) => e.event === 'ready')), {
    what: 'every stream ready through the proxy',
  });
  return { opened, events };
}

const credit = (member: SeededMember, key: string) =>
  fetch(`${proxy.url}/api/operator/care-actions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${OPERATOR_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      userId: member.id,
      caps: 10,
      description: 'Visited a neighbour',
      idempotencyKey: key,
    }),
  });

/** GET /api/me through the proxy, over and over from `loops` clients, until `stop()`. */
function pollMe(loops: number) {
  const statuses: number[] = [];
  const errors: string[] = [];
  let going = true;
  const done = Promise.all(
    Array.from({ length: loops }, async (_, i) => {
      while (going) {
        const res = await fetch(`${proxy.url}/api/me`, {
          headers: { cookie: members[i % members.length]!.cookie },
        }).catch((error: Error) => void errors.push(`${error.message}: ${String(error.cause)}`));
        statuses.push(res?.status ?? 0);
        await res?.arrayBuffer();
      }
    }),
  );
  return {
    statuses,
    errors,
    stop: async () => {
      going = false;
      await done;
    },
  };
}

describe.runIf(runs)(
  'the production topology: HAProxy (deploy/haproxy.cfg) in front of two processes',
  () => {
    it('passes event streams unbuffered: a credit reaches members on either process within 2 s', async () => {
      const group = members.slice(0, 10);
      const { events } = await openStreams(group);
      // leastconn shares ten streams between the two processes.
      const sent = Date.now();
      for (const [i, member] of group.entries())
        expect((await credit(member, `unbuffered-${i}`)).status).toBe(201);
      await until(() => group.every((m) => events.get(m.id)!.some((e) => e.event === 'changed')), {
        timeoutMs: 5_000,
        what: 'a changed event on every stream',
      });
      const delays = group.map(
        (m) => events.get(m.id)!.find((e) => e.event === 'changed')!.at - sent,
      );
      expect(Math.max(...delays)).toBeLessThan(2_000);
    });

    it('each process queues 4096 connections not yet accepted (a restart meets thousands of streams at once)', async () => {
      // Node's default of 511 overflowed in bench/soak.ts: 24,185 connections dropped in one run.
      const { stdout } = await promisify(execFile)('ss', [
        '-ltnH',
        `sport = :${new URL(servers[0]!.url).port}`,
      ]);
      expect(stdout.trim().split(/\s+/)[2]).toBe('4096');
    });

    it("drops the client's own X-Forwarded-For: the server sees the address the proxy saw", async () => {
      const probe = `xff-${Date.now()}`;
      await new Promise<void>((resolve, reject) => {
        http
          .get(
            `${proxy.url}/api/config?probe=${probe}`,
            // 127.0.0.2 is another client on this host; 9.9.9.9 is the address it claims to be.
            { localAddress: '127.0.0.2', headers: { 'x-forwarded-for': '9.9.9.9' }, agent: false },
            (res) => res.resume().on('end', resolve),
          )
          .on('error', reject);
      });
      await until(() => servers.some((s) => s.output().includes(probe)));
      const line = servers
        .flatMap((s) => s.output().split('\n'))
        .find((l) => l.includes(probe) && l.includes('remoteAddress'))!;
      expect(JSON.parse(line).req.remoteAddress).toBe('127.0.0.2');
      expect(line).not.toContain('9.9.9.9');
    });

    it('takes a process that is shutting down (SIGTERM) out without one failed request, and back once restarted', async () => {
      const load = pollMe(8);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const leaving = servers[1]!;
      const stopped = Date.now();
      expect(await leaving.stop('SIGTERM')).toBe(0);
      // It served on while the proxy took it out (SHUTDOWN_DRAIN_SECONDS), then left.
      expect(Date.now() - stopped).toBeGreaterThanOrEqual(5_000);
      expect(leaving.output()).toContain('draining (health answers 503)');
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      servers[1] = await startProcess(Number(new URL(leaving.url).port));
      // Two good checks, 2 s apart, bring it back.
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      await load.stop();
      const failed = load.statuses.filter((s) => s !== 200);
      expect(load.statuses.length).toBeGreaterThan(100);
      expect(failed, `${failed.length} of ${load.statuses.length} failed: ${load.errors}`).toEqual(
        [],
      );
    }, 60_000);

    it("kill -9: the killed process's streams reconnect to the other within 5 s and hear the next credit", async () => {
      const group = members.slice(10, 30);
      const drops = new Map<string, number>();
      const events = new Map<string, StreamEvent[]>();
      for (const member of group) {
        events.set(member.id, []);
        streams.push(
          new MemberStream({
            url: proxy.url,
            cookie: member.cookie,
            onEvent: (e) => events.get(member.id)!.push(e),
            onDrop: (at) => drops.set(member.id, at),
          }),
        );
      }
      await until(() => group.every((m) => events.get(m.id)!.some((e) => e.event === 'ready')));
      const load = pollMe(4);
      const killed = servers[0]!;
      killed.child.kill('SIGKILL');
      await killed.exited;
      const killedAt = Date.now();
      await until(() => drops.size > 0, { what: 'a stream of the killed process dropped' });
      // Each dropped stream is open again (a second "ready") within 5 s of the kill.
      await until(
        () =>
          [...drops.keys()].every(
            (id) => events.get(id)!.filter((e) => e.event === 'ready').length >= 2,
          ),
        { timeoutMs: 8_000, what: 'every dropped stream reconnected' },
      );
      const reconnectedIn = [...drops.keys()].map(
        (id) => events.get(id)!.filter((e) => e.event === 'ready')[1]!.at - killedAt,
      );
      expect(Math.max(...reconnectedIn)).toBeLessThan(5_000);
      await load.stop();
      // Only requests in flight on the killed process may have failed.
      expect(load.statuses.filter((s) => s !== 200).length).toBeLessThanOrEqual(4);
      for (const [i, member] of group.entries())
        expect((await credit(member, `after-kill-${i}`)).status).toBe(201);
      await until(
        () =>
          group.every((m) =>
            events.get(m.id)!.some((e) => e.event === 'changed' && e.at > killedAt),
          ),
        { timeoutMs: 5_000, what: 'the credit heard on every stream after the kill' },
      );
      servers[0] = await startProcess(Number(new URL(killed.url).port));
    }, 90_000);
  },
);
