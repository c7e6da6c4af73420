// HAProxy in front of server processes, as deploy/haproxy.cfg has it: the tests and bench/soak.ts
// run that very file with its listening port and its servers changed, and without the lines
// marked "host only" (syslog, chroot, the admin socket, the daemon mode). Needs Debian's haproxy
// (`apt-get install haproxy`; .ci/run installs it).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './ports';
import { repoRoot } from './server-process';
import { until } from './until';

export const HAPROXY = '/usr/sbin/haproxy';
export const hasHaproxy = () => existsSync(HAPROXY);

export interface Proxy {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/** The connections HAProxy may hold here: two descriptors each (the client's, the server's), within
 * this machine's open-files limit (a real host raises LimitNOFILE instead). */
export function proxyMaxConnections(): number {
  const limit = Number(execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim());
  return Number.isFinite(limit) ? Math.floor((limit - 200) / 2) : 40_000;
}

/** deploy/haproxy.cfg listening on `port`, in front of `servers` (host:port each), with at most
 * `maxconn` connections. */
export function proxyConfig(
  port: number,
  servers: string[],
  maxconn = proxyMaxConnections(),
): string {
  const lines = readFileSync(path.join(repoRoot, 'deploy/haproxy.cfg'), 'utf8').split('\n');
  const out: string[] = [];
  for (const line of lines) {
    if (/#\s*host only\s*$/.test(line)) continue;
    if (/^\s*bind :80\s*$/.test(line)) out.push(`    bind 127.0.0.1:${port}`);
    else if (/^\s*maxconn \d+\s*$/.test(line))
      out.push(`    maxconn ${Math.min(maxconn, Number(line.trim().split(/\s+/)[1]))}`);
    else if (/^\s*server app1 /.test(line)) {
      // Each backend's list of processes (with what follows the address: "track wallet/app1").
      const rest = line.trim().split(/\s+/).slice(3).join(' ');
      servers.forEach((s, i) =>
        out.push(
          `    server app${i + 1} ${s} ${rest.replace(/\bapp1\b/, `app${i + 1}`)}`.trimEnd(),
        ),
      );
    } else if (!/^\s*server app\d+ /.test(line)) out.push(line);
  }
  return out.join('\n');
}

/** Starts HAProxy with deploy/haproxy.cfg in front of `servers` (on `port`, or a free one);
 * resolves once it listens. */
export async function startProxy(servers: string[], port?: number): Promise<Proxy> {
  port ??= await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'crw-proxy-'));
  const file = path.join(dir, 'haproxy.cfg');
  writeFileSync(file, proxyConfig(port, servers));
  // -db: in the foreground, logging to stderr; -W is not needed for one process.
  const child = spawn(HAPROXY, ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  await until(
    async () => {
      if (child.exitCode !== null) throw new Error(`haproxy exited:\n${out}`);
      return fetch(`${url}/api/config`).then(
        () => true,
        () => false,
      );
    },
    { timeoutMs: 20_000, intervalMs: 50, what: () => `haproxy listening (${out})` },
  );
  return {
    url,
    child,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
