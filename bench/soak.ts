// The soak: thousands of open dashboards on the production topology for minutes. PostgreSQL, a
// Hardhat node process with the contracts `ops deploy` put there, two server processes behind
// HAProxy running deploy/haproxy.cfg (server/src/testing/proxy.ts), and N signed-in members
// (seeded, their cookies signed as better-auth signs them). Each member does what an open
// dashboard does, through the proxy (the dashboards open over the first 10 % of the run, at most
// 30 s): holds /api/events open (reconnecting after the server's
// retry), asks GET /api/me every 10 s (its own phase), and on each "changed" or reconnection reads
// /api/me afresh (Cache-Control: no-cache) and /api/activity; its requests go over its own two
// kept-alive connections, as a browser's do. During the run the operator credits a
// care action to a tenth of the members (at 30 % of the run) and publishes a round for all of them
// (at 75 %); at half time one server process is killed (SIGKILL) and restarted a second later, as
// systemd would. It prints, per minute: /api/me p50/p99, 5xx and failed requests, each process's
// RSS; then the delay from each credit's commit to its event on the member's stream (p50, p99,
// max), the same for the round, the killed process's streams' reconnection (p50, p99), and the
// events a member never received (counting the refetch a reconnection makes); and where the time
// went: a slow answer's wait for its member's connection, its connecting and its answer, and per
// minute the load generator's own event loop and CPU, HAProxy's and PostgreSQL's CPU, and how busy
// the machine's cores were (the seconds both were full).
// Usage: npm run bench:soak -- [--members N] [--minutes M]; --smoke: 300 members, 1 minute.
// Needs PostgreSQL (TEST_DATABASE_URL or the local server) and haproxy (apt-get install haproxy).
import http from 'node:http';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { tmpdir, loadavg } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '@crw/server/infra/db/database';
import { setUpSchema } from '@crw/server/setup-schema';
import { createPostgresDatabase } from '@crw/server/testing/database';
import { MemberStream } from '@crw/server/testing/event-stream-client';
import { startHardhatNode } from '@crw/server/testing/hardhat-node';
import { deployWithOps } from '@crw/server/testing/ops-deploy';
import { freePort } from '@crw/server/testing/ports';
import { hasHaproxy, proxyMaxConnections, startProxy } from '@crw/server/testing/proxy';
import { seedSignedInMembers } from '@crw/server/testing/seeded-members';
import {
  spawnServer,
  waitForHealthy,
  type ServerProcess,
} from '@crw/server/testing/server-process';
import { percentile, sized, smoke, smokeNeedsPostgres } from './lib/harness';

const flag = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : undefined;
};
/** Each member's own connections for its requests, as a browser has its own (a pool shared by all
 * members queued a round's re-reads in the load generator instead of the servers). */
const MEMBER_SOCKETS = 2;
const minutes = flag('minutes') ?? sized(10, 1);
// Each member is its stream and up to MEMBER_SOCKETS request connections in HAProxy, two
// descriptors each (theirs, the server's); this machine's open-files limit caps them.
const proxyRoom = Math.floor((proxyMaxConnections() - 200) / (1 + MEMBER_SOCKETS));
const asked = flag('members') ?? sized(10_000, 300);
const members = Math.min(asked, proxyRoom);
const OPERATOR_KEY = 'soak-operator-key-0123456789abcdef0123';
const AUTH_SECRET = 'soak-auth-secret-0123456789abcdef0123456789';
const POLL_MS = 10_000;
const runMs = minutes * 60_000;

process.env.TEST_DATABASE_URL ??=
  process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
await smokeNeedsPostgres(process.env.TEST_DATABASE_URL);
if (!hasHaproxy()) {
  console.error('soak: no haproxy at /usr/sbin/haproxy (apt-get install haproxy)');
  if (!smoke || process.env.CI === 'true') process.exit(1);
  console.error('SKIPPED: nothing was measured (outside CI)');
  process.exit(0);
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const ms = (v: number | undefined) => (v === undefined ? '—' : `${Math.round(v)} ms`);
const pct = (values: number[], p: number) =>
  values.length ? percentile(sorted(values), p) : undefined;

/** The server processes' resident memory, MB, from /proc. */
function rssMb(server: ServerProcess): number | undefined {
  try {
    const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]) / 1024;
  } catch {
    return undefined;
  }
}

/** CPU seconds a process has used (with its ended children's, if asked), from /proc (100 ticks a
 * second). */
function cpuSeconds(pid: number | undefined, children = false): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const own = Number(fields[11]) + Number(fields[12]);
    return (own + (children ? Number(fields[13]) + Number(fields[14]) : 0)) / 100;
  } catch {
    return 0;
  }
}
/** The machine's CPU time so far, busy and all, in ticks (/proc/stat). */
function machineTicks(): { busy: number; all: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const n = fields.map(Number);
  const all = n.reduce((a, b) => a + b, 0);
  return { busy: all - n[3]! - n[4]!, all };
}
/** Every PostgreSQL process's CPU seconds together, with those of its ended backends. */
function postgresCpuSeconds(): number {
  let sum = 0;
  for (const pid of readdirSync('/proc'))
    if (/^\d+$/.test(pid))
      try {
        if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres')
          sum += cpuSeconds(Number(pid), true);
      } catch {
        // gone meanwhile
      }
  return sum;
}

const node = await startHardhatNode();
await node.request('evm_setIntervalMining', [1_000]);
const created = await createPostgresDatabase();
const servers: ServerProcess[] = [];
let stopProxy = async () => {};
try {
  const database = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 4 });
  await setUpSchema(database);
  const t = performance.now();
  const seeded = await seedSignedInMembers(database.db, members, AUTH_SECRET);
  await sql`UPDATE user_token_distributions SET signup_tokens = 200 * 10::numeric ^ 18`.execute(
    database.db,
  );
  const seedS = (performance.now() - t) / 1000;
  await database.close();

  const env = {
    ...(await deployWithOps(node, mkdtempSync(path.join(tmpdir(), 'crw-soak-')))),
    DATABASE_URL: created.url,
    AUTH_SECRET,
    OPERATOR_API_KEY: OPERATOR_KEY,
    TRUST_PROXY: '127.0.0.1',
    SHUTDOWN_DRAIN_SECONDS: '5',
    CHAIN_POLL_INTERVAL_MS: '1000',
    LOG_LEVEL: 'warn',
    // Ten thousand members behind one proxy are one client address to the servers' per-client caps.
    EVENT_STREAMS_PER_CLIENT: '1000000',
    AUTH_RATE_LIMIT_PER_IP: '1000000',
    RPC_RATE_LIMIT_PER_MINUTE: '1000000',
  };
  const ports = [await freePort(), await freePort()];
  const start = async (port: number) => {
    const server = spawnServer({ ...env, PORT: String(port), PUBLIC_URL: 'http://127.0.0.1' });
    await waitForHealthy(server);
    return server;
  };
  for (const port of ports) servers.push(await start(port));
  const proxy = await startProxy(servers.map((s) => new URL(s.url).host));
  stopProxy = proxy.stop;
  const target = new URL(proxy.url);

  console.log(
    `soak${smoke ? ' (smoke)' : ''}: ${members.toLocaleString('en-GB')} signed-in members (seeded in ${seedS.toFixed(1)} s)` +
      (members < asked
        ? `, not ${asked.toLocaleString('en-GB')}: a member is up to ${1 + MEMBER_SOCKETS} connections in HAProxy (two descriptors each) and this machine allows it ${proxyMaxConnections().toLocaleString('en-GB')} (open-files limit)`
        : '') +
      `; ${minutes} min; two server processes behind HAProxy (deploy/haproxy.cfg) on PostgreSQL; load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
  );

  // What the members saw.
  const began = Date.now();
  const minuteOf = (at: number) => Math.floor((at - began) / 60_000);
  /** Where an answer's time went: waiting for the member's socket, connecting, the server. */
  interface Phases {
    status: number;
    waitMs: number;
    connectMs: number;
    answerMs: number;
  }
  /** Each /api/me asked: when it was answered, and its whole time (the phases together). */
  const me: Array<Phases & { at: number; ms: number }> = [];
  const changedAt = seeded.map(() => [] as number[]);
  const readyAt = seeded.map(() => [] as number[]);
  const droppedAt = seeded.map(() => [] as number[]);
  const agents = seeded.map(() => new http.Agent({ keepAlive: true, maxSockets: MEMBER_SOCKETS }));

  const get = (member: number, pathname: string, cookie: string, fresh = false) =>
    new Promise<Phases>((resolve) => {
      const sent = performance.now();
      let socketAt = sent;
      let connectedAt = sent;
      const done = (status: number) =>
        resolve({
          status,
          waitMs: socketAt - sent,
          connectMs: connectedAt - socketAt,
          answerMs: performance.now() - connectedAt,
        });
      const req = http.get(
        {
          host: target.hostname,
          port: target.port,
          path: pathname,
          agent: agents[member],
          headers: { cookie, ...(fresh ? { 'cache-control': 'no-cache' } : {}) },
        },
        (res) => {
          res.resume();
          res.on('end', () => done(res.statusCode ?? 0));
          res.on('error', () => done(0));
        },
      );
      req.on('socket', (socket) => {
        socketAt = connectedAt = performance.now();
        if (socket.connecting) socket.once('connect', () => (connectedAt = performance.now()));
      });
      req.on('error', () => done(0));
    });
  const askMe = async (member: number, cookie: string, fresh: boolean) => {
    const phases = await get(member, '/api/me', cookie, fresh);
    me.push({
      at: Date.now(),
      ms: phases.waitMs + phases.connectMs + phases.answerMs,
      ...phases,
    });
  };

  let running = true;
  // The dashboards open one after another over the first RAMP_MS, as members arrive, not in one
  // instant (a restart's reconnections are that instant, measured at the kill).
  const rampMs = Math.min(30_000, runMs * 0.1);
  const streams: MemberStream[] = [];
  const opening = seeded.map((member, i) => {
    const refetch = () => {
      void askMe(i, member.cookie, true);
      void get(i, '/api/activity', member.cookie);
    };
    const open = () =>
      streams.push(
        new MemberStream({
          url: proxy.url,
          cookie: member.cookie,
          onEvent: (event) => {
            if (event.event === 'changed') {
              changedAt[i]!.push(event.at);
              refetch();
            } else if (event.event === 'ready') {
              // A reconnection reads afresh, as the dashboard does (web/src/lib/member-events.ts).
              if (readyAt[i]!.length > 0) refetch();
              readyAt[i]!.push(event.at);
            }
          },
          onDrop: (at) => droppedAt[i]!.push(at),
        }),
      );
    return setTimeout(open, (i / seeded.length) * rampMs);
  });
  const timers = seeded.map((member, i) => {
    let timer: NodeJS.Timeout;
    const poll = () => {
      if (!running) return;
      void askMe(i, member.cookie, false);
      timer = setTimeout(poll, POLL_MS);
    };
    timer = setTimeout(poll, (i / seeded.length) * rampMs + Math.random() * POLL_MS);
    return () => clearTimeout(timer);
  });

  // Requests waiting for one of their member's own sockets (a browser waits in its connections
  // too): part of each latency.
  let waitingPeak = 0;
  const waiting = setInterval(() => {
    let queued = 0;
    for (const agent of agents)
      for (const list of Object.values(agent.requests)) queued += list?.length ?? 0;
    waitingPeak = Math.max(waitingPeak, queued);
  }, 1_000);
  // The rest of the machine each minute: this load generator's own event loop (its delay is in
  // every latency it measures) and CPU, HAProxy's CPU, PostgreSQL's.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const host: Array<{
    lagP99: number;
    lagMax: number;
    self: number;
    proxy: number;
    pg: number;
    machine: number;
    saturated: number;
  }> = [];
  // The whole machine each second: how busy both cores were, and how many seconds they were full.
  let ticks = machineTicks();
  let machine = { busy: 0, all: 0, saturated: 0 };
  const machineSampler = setInterval(() => {
    const now = machineTicks();
    const busy = (now.busy - ticks.busy) / Math.max(1, now.all - ticks.all);
    machine = {
      busy: machine.busy + now.busy - ticks.busy,
      all: machine.all + now.all - ticks.all,
      saturated: machine.saturated + (busy >= 0.95 ? 1 : 0),
    };
    ticks = now;
  }, 1_000);
  let hostBefore = {
    self: process.cpuUsage(),
    proxy: cpuSeconds(proxy.child.pid),
    pg: postgresCpuSeconds(),
  };
  const hostSampler = setInterval(() => {
    const now = {
      self: process.cpuUsage(),
      proxy: cpuSeconds(proxy.child.pid),
      pg: postgresCpuSeconds(),
    };
    const self = process.cpuUsage(hostBefore.self);
    host[minuteOf(Date.now()) - 1] = {
      lagP99: loop.percentile(99) / 1e6,
      lagMax: loop.max / 1e6,
      self: (self.user + self.system) / 1e6 / 60,
      proxy: (now.proxy - hostBefore.proxy) / 60,
      pg: (now.pg - hostBefore.pg) / 60,
      machine: machine.busy / Math.max(1, machine.all),
      saturated: machine.saturated,
    };
    machine = { busy: 0, all: 0, saturated: 0 };
    loop.reset();
    hostBefore = now;
  }, 60_000);
  const rss: Array<Array<number | undefined>> = [[], []];
  const sampler = setInterval(() => {
    const minute = minuteOf(Date.now());
    servers.forEach((s, i) => (rss[i]![minute] = rssMb(s) ?? rss[i]![minute]));
  }, 2_000);
  // The servers' own view, each minute: their time in /api/me, their event loops' delay, their CPU.
  interface Inside {
    minute: number;
    meMs: number;
    activityMs: number;
    lagMs: number;
    cpu: number;
  }
  const inside: Inside[][] = [[], []];
  const last = [0, 1].map(() => ({
    pid: 0,
    count: 0,
    sum: 0,
    cpu: 0,
    activityCount: 0,
    activitySum: 0,
  }));
  const metric = (text: string, pattern: RegExp) =>
    [...text.matchAll(pattern)].reduce((sum, m) => sum + Number(m[1]), 0);
  const timed = (kind: string, route = '/api/me') =>
    new RegExp(
      `^crw_http_request_duration_seconds_${kind}\\{[^}]*route="${route}"[^}]*\\} (\\S+)$`,
      'gm',
    );
  const insideSampler = setInterval(() => {
    servers.forEach((server, i) => {
      void fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${OPERATOR_KEY}` } })
        .then((r) => r.text())
        .then(
          (text) => {
            // A restarted process counts from zero.
            const before =
              last[i]!.pid === server.child.pid
                ? last[i]!
                : { count: 0, sum: 0, cpu: 0, activityCount: 0, activitySum: 0 };
            const now = {
              pid: server.child.pid ?? 0,
              count: metric(text, timed('count')),
              sum: metric(text, timed('sum')),
              cpu: metric(text, /^crw_process_cpu_seconds_total (\S+)$/gm),
              activityCount: metric(text, timed('count', '/api/activity')),
              activitySum: metric(text, timed('sum', '/api/activity')),
            };
            inside[i]!.push({
              minute: minuteOf(Date.now()),
              meMs: ((now.sum - before.sum) / Math.max(1, now.count - before.count)) * 1000,
              activityMs:
                ((now.activitySum - before.activitySum) /
                  Math.max(1, now.activityCount - before.activityCount)) *
                1000,
              lagMs: metric(text, /^crw_nodejs_eventloop_lag_p99_seconds (\S+)$/gm) * 1000,
              cpu: (now.cpu - before.cpu) / 60,
            });
            last[i] = now;
          },
          () => undefined,
        );
    });
  }, 60_000);

  const at = (fraction: number) =>
    new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, began + runMs * fraction - Date.now())),
    );
  const operator = (pathname: string, body?: unknown) =>
    fetch(`${proxy.url}/api/operator${pathname}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${OPERATOR_KEY}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });

  // A care action for every tenth member, eight at a time, each timed from just before its request.
  await at(0.3);
  const creditSent = new Map<number, number>();
  const credited = seeded.map((_, i) => i).filter((i) => i % 10 === 0);
  const queue = [...credited];
  let creditFailures = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
        creditSent.set(i, Date.now());
        const res = await operator('/care-actions', {
          userId: seeded[i]!.id,
          caps: 10,
          description: 'Helped at the community lunch',
          idempotencyKey: `soak-${i}`,
        });
        if (res.status !== 201) creditFailures++;
        await res.arrayBuffer();
      }
    }),
  );

  // kill -9 of the second process at half time, restarted a second later.
  await at(0.5);
  const killed = servers[1]!;
  killed.child.kill('SIGKILL');
  await killed.exited;
  const killedAt = Date.now();
  const killMinute = minuteOf(killedAt);
  const restarted = new Promise<ServerProcess>((resolve) =>
    setTimeout(() => void start(ports[1]!).then(resolve), 1_000),
  );
  const killedRss = rss[1]!.slice();
  servers[1] = await restarted;
  const restartedAt = Date.now();
  rss[1] = [];

  // The round, for every member.
  await at(0.75);
  const roundSent = Date.now();
  const published = await operator('/distributions');
  const roundAnswered = Date.now();
  if (published.status !== 200)
    throw new Error(`publish: ${published.status} ${await published.text()}`);

  await at(1);
  running = false;
  for (const stop of timers) stop();
  // Events still in flight get a few seconds.
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  clearInterval(sampler);
  clearInterval(hostSampler);
  clearInterval(machineSampler);
  clearInterval(insideSampler);
  clearInterval(waiting);
  for (const timer of opening) clearTimeout(timer);
  for (const stream of streams) stream.close();
  for (const agent of agents) agent.destroy();

  // Figures.
  console.log(
    '\nminute  /api/me  p50      p99      5xx  failed   RSS first (MB)  RSS second (MB)   each process: its /api/me mean, event-loop p99, CPU of a core',
  );
  const lastMinute = minuteOf(Date.now());
  for (let m = 0; m <= Math.min(lastMinute, minutes - 1); m++) {
    const inMinute = me.filter((r) => minuteOf(r.at) === m);
    const times = inMinute.map((r) => r.ms);
    const fivexx = inMinute.filter((r) => r.status >= 500).length;
    const failed = inMinute.filter((r) => r.status === 0).length;
    const second = m < killMinute ? killedRss[m] : rss[1]![m];
    const view = inside
      .map((list) => list.find((s) => s.minute === m + 1))
      .map((own) =>
        own
          ? `${own.meMs.toFixed(1)} ms (activity ${own.activityMs.toFixed(0)} ms), ${own.lagMs.toFixed(0)} ms, ${(own.cpu * 100).toFixed(0)} %`
          : '—',
      )
      .join(' | ');
    console.log(
      `${String(m + 1).padStart(6)}  ${String(inMinute.length).padStart(7)}  ${ms(pct(times, 50)).padEnd(8)} ${ms(pct(times, 99)).padEnd(8)} ${String(fivexx).padStart(3)}  ${String(failed).padStart(6)}   ${(rss[0]![m]?.toFixed(0) ?? '—').padStart(14)}  ${(second?.toFixed(0) ?? '—').padStart(15)}   ${view}${m === killMinute ? '   (kill -9 of the second process)' : ''}`,
    );
  }

  console.log(
    '\nminute  load generator: event-loop delay p99 / max, CPU of a core   HAProxy CPU   PostgreSQL CPU   both cores busy, seconds full',
  );
  host.forEach((h, m) =>
    console.log(
      `${String(m + 1).padStart(6)}  ${`${h.lagP99.toFixed(0)} / ${h.lagMax.toFixed(0)} ms`.padStart(36)}, ${(h.self * 100).toFixed(0).padStart(3)} %   ${(h.proxy * 100).toFixed(0).padStart(9)} %   ${(h.pg * 100).toFixed(0).padStart(12)} %   ${(h.machine * 100).toFixed(0).padStart(14)} %, ${h.saturated} s`,
    ),
  );

  // Each credit: from its request to the first "changed" on the member's stream after it.
  const creditDelays: number[] = [];
  let lost = 0;
  const heard = (i: number, since: number) =>
    changedAt[i]!.find((t) => t >= since) ?? readyAt[i]!.slice(1).find((t) => t >= since);
  for (const [i, sent] of creditSent) {
    const first = heard(i, sent);
    if (first === undefined) lost++;
    else if (changedAt[i]!.some((t) => t === first)) creditDelays.push(first - sent);
  }
  const roundDelays: number[] = [];
  for (let i = 0; i < seeded.length; i++) {
    const first = heard(i, roundSent);
    if (first === undefined) lost++;
    else roundDelays.push(first - roundAnswered);
  }
  const reconnections: number[] = [];
  for (let i = 0; i < seeded.length; i++) {
    const drop = droppedAt[i]!.find((t) => t >= killedAt - 1_000 && t <= killedAt + 10_000);
    if (drop === undefined) continue;
    const back = readyAt[i]!.find((t) => t > drop);
    if (back !== undefined) reconnections.push(back - drop);
  }
  const allMe = me.map((r) => r.ms);
  const killWindow = me.filter((r) => Math.abs(r.at - killedAt) <= 2_000);
  const outside = me.filter((r) => Math.abs(r.at - killedAt) > 2_000);
  const p99s = Array.from({ length: minutes }, (_, m) =>
    m === killMinute
      ? 0
      : (pct(
          me.filter((r) => minuteOf(r.at) === m).map((r) => r.ms),
          99,
        ) ?? 0),
  );
  const rss2 = rss[0]![Math.min(1, minutes - 1)];
  const rssEnd = rss[0]![minutes - 1];
  console.log(`
/api/me: ${me.length.toLocaleString('en-GB')} requests (${(me.length / (runMs / 1000)).toFixed(0)}/s), p50 ${ms(pct(allMe, 50))}, p99 ${ms(pct(allMe, 99))}; worst minute's p99 outside the kill's: ${ms(Math.max(...p99s))} (goal ≤ 100 ms)
5xx or failed: ${outside.filter((r) => r.status >= 500 || r.status === 0).length} outside the 2 s around the kill (goal 0); ${killWindow.filter((r) => r.status >= 500 || r.status === 0).length} within them
care action credited to ${credited.length.toLocaleString('en-GB')} members (${creditFailures} refused): event after the request p50 ${ms(pct(creditDelays, 50))}, p99 ${ms(pct(creditDelays, 99))}, max ${ms(pct(creditDelays, 100))} (goal p99 ≤ 2 s)
round published for ${seeded.length.toLocaleString('en-GB')} members (answered in ${roundAnswered - roundSent} ms): event after the answer p50 ${ms(pct(roundDelays, 50))}, p99 ${ms(pct(roundDelays, 99))}, max ${ms(pct(roundDelays, 100))} (the chain follower sees the root's block first)
kill -9 of the second process: ${reconnections.length.toLocaleString('en-GB')} streams dropped and reconnected, p50 ${ms(pct(reconnections, 50))}, p99 ${ms(pct(reconnections, 99))} (goal p99 ≤ 5 s); it was back in ${((restartedAt - killedAt) / 1000).toFixed(1)} s
events a member never received: ${lost} (goal 0)
requests waiting for one of their member's ${MEMBER_SOCKETS} sockets, at most: ${waitingPeak}
RSS of the first process: minute 2 ${rss2?.toFixed(0) ?? '—'} MB, last minute ${rssEnd?.toFixed(0) ?? '—'} MB${rss2 && rssEnd ? ` (${(((rssEnd - rss2) / rss2) * 100).toFixed(1)} %, goal ≤ 10 %)` : ''}; load at the end ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`);
  // Where the slow answers were: the first seconds (every member's first read), the kill, the round.
  const slow = me.filter((r) => r.ms > 500);
  const near = (from: number, seconds: number) =>
    slow.filter((r) => r.at >= from && r.at <= from + seconds * 1000).length;
  const creditsFrom = Math.min(...creditSent.values());
  console.log(
    `/api/me over 500 ms: ${slow.length} — ${near(began, 15)} in the first 15 s, ${near(creditsFrom, 15)} in 15 s from the credits, ${near(killedAt, 15)} in 15 s from the kill, ${near(roundSent, 15)} in 15 s from the round`,
  );
  const p50p99 = (phase: (r: (typeof me)[number]) => number) =>
    `${ms(pct(slow.map(phase), 50))} / ${ms(pct(slow.map(phase), 99))}`;
  if (slow.length > 0)
    console.log(
      `  their time, p50 / p99: waiting for the member's socket ${p50p99((r) => r.waitMs)}, connecting ${p50p99((r) => r.connectMs)}, from the request to its answer ${p50p99((r) => r.answerMs)}`,
    );
  const statuses = new Map<number, number>();
  for (const r of me) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
  console.log(
    `/api/me answers: ${[...statuses].map(([status, n]) => `${status || 'no answer'} ×${n}`).join(', ')}`,
  );
  if (process.env.SOAK_SERVER_LOG)
    for (const s of servers) console.log(s.output().split('\n').slice(-30).join('\n'));
  if (lost > 0) process.exitCode = 1;
} finally {
  await stopProxy();
  for (const server of servers) await server.stop();
  await node.stop();
  await created.drop();
}
