// Runs the real server as its own process (node --import tsx server/src/main.ts), as npm start does.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { until } from './until';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function spawnServer(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      // Every client here is 127.0.0.1, one network: it must not earn the raised sign-up gate.
      SIGNUP_GATE_NETWORK_HOURLY_SIGNUPS: '100000',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      NODE_ENV: 'test',
      // Credits count at once, and new accounts' claims are sponsored, unless a test is about that.
      REWARD_HOLD_HOURS: '0',
      SPONSOR_MIN_ACCOUNT_AGE_HOURS: '0',
      SPONSOR_NETWORK_SHARE_PERCENT: '100',
      // Members press Claim themselves, unless a test is about claims made for them.
      CLAIM_FOR_ME_DEFAULT: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return {
    child,
    url: `http://127.0.0.1:${env.PORT ?? '3000'}`,
    output: () => out,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Polls GET /api/health until it answers 200; returns the milliseconds it took. */
export async function waitForHealthy(server: ServerProcess, timeoutMs = 90_000): Promise<number> {
  const started = Date.now();
  await until(
    async () => {
      if (server.child.exitCode !== null)
        throw new Error(`server exited early:\n${server.output()}`);
      try {
        return (await fetch(`${server.url}/api/health`)).status === 200;
      } catch {
        return false; // not listening yet
      }
    },
    {
      timeoutMs,
      intervalMs: 100,
      what: () => `the server healthy (its output so far:\n${server.output()})\n`,
    },
  );
  return Date.now() - started;
}
