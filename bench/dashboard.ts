// The dashboard's reads at load: the production shape — PostgreSQL, a separate chain
// node (Hardhat's, standing in for Sepolia) and the contracts deployed by `ops deploy` — with 50
// connections: /api/config, /api/me and /api/referrals/network (req/s, p50, p99, the server's CPU
// per request) and the chain calls the server made meanwhile; /api/me also with `Cache-Control:
// no-cache` (every read from the database, as after a "changed" event); then /api/me on two server
// processes. RUNS rounds (default 3), DURATION seconds each (default 10); medians printed.
// --smoke: one round of 1 s, 5 members.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import {
  cloneMemberKeys,
  cookieOf,
  makeMemberKeys,
  registerBody,
} from '@crw/server/testing/members';
import { startHardhatNode } from '@crw/server/testing/hardhat-node';
import { deployWithOps } from '@crw/server/testing/ops-deploy';
import {
  freePort,
  median,
  repoRoot,
  sized,
  smokeNeedsPostgres,
  waitForHealth,
} from './lib/harness';

process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
await smokeNeedsPostgres(process.env.TEST_DATABASE_URL);
const { createPostgresDatabase } = await import('@crw/server/testing/database');

const runs = sized(Number(process.env.RUNS ?? 3), 1);
const duration = sized(Number(process.env.DURATION ?? 10), 1);
const connections = 50;
const MEMBERS = sized(50, 5);
const operatorApiKey = 'bench-operator-key-0123456789-0123456789';

async function startServer(env: Record<string, string>) {
  const { spawn } = await import('node:child_process');
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(url);
  return { url, stop: () => child.kill('SIGTERM') };
}

/** What the server has asked the chain node so far (its own count, from /metrics). */
async function chainCalls(url: string): Promise<number> {
  const text = await (
    await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${operatorApiKey}` } })
  ).text();
  return [...text.matchAll(/^crw_chain_node_calls_total\{[^}]*\} (\S+)$/gm)].reduce(
    (sum, m) => sum + Number(m[1]),
    0,
  );
}

/** The server process's CPU time so far (prom-client's process metrics). */
async function cpuSeconds(url: string): Promise<number> {
  const text = await (
    await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${operatorApiKey}` } })
  ).text();
  return Number(/^crw_process_cpu_seconds_total (\S+)$/m.exec(text)?.[1]);
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  bad: number;
}

function load(
  url: string,
  cookies: string[],
  conns = connections,
  headers: Record<string, string> = {},
): Promise<Figures> {
  let next = 0;
  return autocannon({
    url,
    connections: conns,
    duration,
    setupClient: (client) =>
      client.setHeaders({ ...headers, cookie: cookies[next++ % cookies.length]! }),
  }).then((r) => ({
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    bad: r.non2xx + r.errors,
  }));
}

const node = await startHardhatNode();
const database = await createPostgresDatabase();
const servers: Array<{ stop: () => void }> = [];
try {
  const env = {
    ...(await deployWithOps(node, mkdtempSync(path.join(tmpdir(), 'crw-bench-')))),
    DATABASE_URL: database.url,
    OPERATOR_API_KEY: operatorApiKey,
    REQUIRE_EMAIL_CONFIRMATION: 'false',
    AUTH_RATE_LIMIT_PER_IP: '1000000',
    RPC_RATE_LIMIT_PER_MINUTE: '1000000',
  };
  const first = await startServer(env);
  servers.push(first);

  // Members, each signed in: the first refers the others, so one network has 49 members.
  const base = await makeMemberKeys();
  const cookies: string[] = [];
  let referralCode: string | undefined;
  for (let i = 0; i < MEMBERS; i++) {
    const keys = await cloneMemberKeys(base);
    const body = await registerBody(first.url, keys, referralCode ? { referralCode } : {});
    const res = await fetch(`${first.url}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
    const signIn = await fetch(`${first.url}/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: first.url },
      body: JSON.stringify({ email: keys.email, password: keys.authSecret }),
    });
    cookies.push(cookieOf(signIn.headers.getSetCookie()));
    if (i === 0)
      referralCode = (
        (await (
          await fetch(`${first.url}/api/me`, { headers: { cookie: cookies[0]! } })
        ).json()) as { referralCode: string }
      ).referralCode;
  }
  console.log(
    `PostgreSQL, a Hardhat node process, ${MEMBERS} signed-in members; ${connections} connections, ${duration} s each, ${runs} runs\n`,
  );

  const table: Record<string, Array<Figures & { calls: number; cpuUs: number }>> = {};
  const routes: Array<[string, string, Record<string, string>]> = [
    ['/api/config', '/api/config', {}],
    ['/api/me', '/api/me', {}],
    ['/api/me no-cache', '/api/me', { 'cache-control': 'no-cache' }],
    ['/api/referrals/network', '/api/referrals/network', {}],
  ];
  for (let run = 1; run <= runs; run++) {
    for (const [label, route, headers] of routes) {
      const before = await chainCalls(first.url);
      const cpuBefore = await cpuSeconds(first.url);
      const figures = await load(`${first.url}${route}`, cookies, connections, headers);
      const calls = (await chainCalls(first.url)) - before;
      const cpuUs = (((await cpuSeconds(first.url)) - cpuBefore) / (figures.rps * duration)) * 1e6;
      (table[label] ??= []).push({ ...figures, calls, cpuUs });
      console.log(
        `run ${run} ${label.padEnd(24)} ${figures.rps.toFixed(0).padStart(6)} req/s  p50 ${figures.p50} ms  p99 ${figures.p99} ms  CPU ${cpuUs.toFixed(0)} µs/req  non-2xx/errors ${figures.bad}  chain calls ${calls}`,
      );
    }
  }

  const second = await startServer(env);
  servers.push(second);
  const twoProcesses: number[] = [];
  for (let run = 1; run <= runs; run++) {
    const halves = await Promise.all([
      load(`${first.url}/api/me`, cookies, connections / 2),
      load(`${second.url}/api/me`, cookies, connections / 2),
    ]);
    const rps = halves[0].rps + halves[1].rps;
    twoProcesses.push(rps);
    console.log(
      `run ${run} /api/me on two processes  ${rps.toFixed(0).padStart(6)} req/s (${halves.map((h) => h.rps.toFixed(0)).join(' + ')})`,
    );
  }

  console.log(`\nmedians of ${runs} runs:`);
  for (const [route, all] of Object.entries(table)) {
    const perMinute = (median(all.map((f) => f.calls)) / duration) * 60;
    console.log(
      `${route.padEnd(24)} ${median(all.map((f) => f.rps))
        .toFixed(0)
        .padStart(
          6,
        )} req/s  p50 ${median(all.map((f) => f.p50))} ms  p99 ${median(all.map((f) => f.p99))} ms  CPU ${median(all.map((f) => f.cpuUs)).toFixed(0)} µs/req  chain calls ${median(all.map((f) => f.calls))} per run (${perMinute.toFixed(0)}/min)`,
    );
  }
  const me = median(table['/api/me']!.map((f) => f.rps));
  const config = median(table['/api/config']!.map((f) => f.rps));
  const fromDatabase = median(table['/api/me no-cache']!.map((f) => f.rps));
  console.log(
    `/api/me at ${((me / config) * 100).toFixed(0)} % of /api/config's throughput (goal ≥ 40 %); read from the database every time ${((fromDatabase / config) * 100).toFixed(0)} %`,
  );
  console.log(
    `two processes: /api/me ${median(twoProcesses).toFixed(0)} req/s, ${(median(twoProcesses) / me).toFixed(2)}× one process (load generator on the same 2 cores)`,
  );
} finally {
  for (const s of servers) s.stop();
  await node.stop();
  await new Promise((r) => setTimeout(r, 500));
  await database.drop();
}
