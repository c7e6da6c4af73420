// A Hardhat node in a process of its own (JSON-RPC over HTTP on a free port), for tests of a
// remote chain: its JSON-RPC for the test's own calls (evm_snapshot, hardhat_setBalance, ...), and
// stop and start on the same port (Hardhat keeps nothing, so a start is a fresh chain).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoRoot } from './server-process';
import { freePort } from './smtp-peer';
import { until } from './until';

const hardhatCli = path.join(
  path.dirname(createRequire(import.meta.url).resolve('hardhat/package.json')),
  'internal/cli/bootstrap.js',
);

export interface ChainNodeProcess {
  url: string;
  request<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  stop(): Promise<void>;
  /** Starts the node again on the same port: a new chain from genesis. */
  start(): Promise<void>;
}

export async function startChainNode(): Promise<ChainNodeProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dir = mkdtempSync(path.join(tmpdir(), 'crw-hardhat-'));
  const config = path.join(dir, 'hardhat.config.cjs');
  writeFileSync(
    config,
    "module.exports = { networks: { hardhat: { chainId: 31337, hardfork: 'prague' } } };\n",
  );
  let child: ChildProcess | undefined;
  let output = '';

  const request = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const body = (await res.json()) as { result?: T; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result as T;
  };

  const start = async () => {
    output = '';
    // From the workspace that installs Hardhat (it refuses to run from elsewhere); its own process
    // group, so stopping it also stops whatever it spawned.
    child = spawn(
      process.execPath,
      [hardhatCli, '--config', config, 'node', '--hostname', '127.0.0.1', '--port', String(port)],
      {
        cwd: path.join(repoRoot, 'contracts'),
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    const proc = child;
    await until(
      () => {
        if (proc.exitCode !== null) throw new Error(`the Hardhat node exited:\n${output}`);
        return request('eth_chainId').then(
          () => true,
          () => false,
        );
      },
      {
        timeoutMs: 90_000,
        intervalMs: 250,
        what: () => `the Hardhat node answering (its output:\n${output})\n`,
      },
    );
  };

  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    process.kill(-running.pid!, 'SIGTERM');
    await exited;
  };

  await start();
  return { url, request, stop, start };
}
