// A Hardhat JSON-RPC node (`hardhat node`) as its own process on a free port: the remote chain a
// production server talks to through CHAIN_RPC_URL, which tests can stop and start again.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WELL_KNOWN_TEST_KEYS } from '@crw/contracts';
import { freePort } from './ports';
import { repoRoot } from './server-process';
import { until } from './until';

const hardhatCli = createRequire(path.join(repoRoot, 'contracts/package.json')).resolve(
  'hardhat/internal/cli/bootstrap.js',
);
const BALANCE = 10n ** 22n; // 10,000 ETH, as Hardhat's default accounts

export interface HardhatNode {
  url: string;
  port: number;
  /** Private keys of the node's funded accounts: Hardhat's default accounts 0 to 3. */
  accounts: readonly string[];
  /** A raw JSON-RPC call (evm_snapshot, evm_revert, evm_mine, evm_setAutomine, …); errors throw. */
  request<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** Starts the node again on the same port, after stop(): a fresh chain (the node keeps nothing).
   * Returns the milliseconds until it answered eth_chainId. */
  start(): Promise<number>;
  /** SIGTERM; resolves when the process has exited. */
  stop(): Promise<void>;
  /** What the node printed (for failure messages). */
  output(): string;
  /** Milliseconds from spawning the first process until it answered eth_chainId. */
  startupMs: number;
}

/**
 * The accounts are given as keys rather than Hardhat's mnemonic: deriving 20 accounts from it took
 * about half of the node's startup (~0.9 s of ~1.3 s here before, ~0.5 s after).
 */
function writeConfig(): string {
  const accounts = WELL_KNOWN_TEST_KEYS.map((privateKey) => ({
    privateKey,
    balance: BALANCE.toString(),
  }));
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'crw-hardhat-')), 'hardhat.config.cjs');
  writeFileSync(
    file,
    `module.exports = { networks: { hardhat: { accounts: ${JSON.stringify(accounts)} } } };\n`,
  );
  return file;
}

async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

export async function startHardhatNode(): Promise<HardhatNode> {
  const config = writeConfig();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let out = '';

  const launch = async (port: number): Promise<number> => {
    const started = performance.now();
    out = '';
    const proc = spawn(
      process.execPath,
      [hardhatCli, '--config', config, 'node', '--hostname', '127.0.0.1', '--port', String(port)],
      {
        cwd: repoRoot, // Hardhat refuses to run unless it is installed where it starts
        env: { PATH: process.env.PATH ?? '', HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child = proc;
    proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (out += c.toString()));
    exited = new Promise((resolve) => proc.once('exit', () => resolve()));
    const url = `http://127.0.0.1:${port}`;
    await until(
      () => {
        if (proc.exitCode !== null || proc.signalCode !== null)
          throw new Error(`hardhat node exited on port ${port}:\n${out}`);
        return rpc(url, 'eth_chainId').then(
          () => true,
          () => false,
        );
      },
      {
        timeoutMs: 30_000,
        intervalMs: 25,
        what: () => `hardhat node answering on port ${port} (its output:\n${out})\n`,
      },
    ).catch((error: unknown) => {
      proc.kill('SIGTERM');
      throw error;
    });
    return Math.round(performance.now() - started);
  };

  // The free port can be taken before the node binds it: then try another one.
  let port = await freePort();
  let startupMs: number | undefined;
  for (let attempt = 1; startupMs === undefined; attempt++) {
    try {
      startupMs = await launch(port);
    } catch (error) {
      if (attempt === 3) throw error;
      port = await freePort();
    }
  }

  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    accounts: WELL_KNOWN_TEST_KEYS,
    startupMs,
    request: (method, params) => rpc(url, method, params),
    start: async () => {
      if (child?.exitCode === null && child.signalCode === null)
        throw new Error('the hardhat node is running');
      return launch(port);
    },
    stop: async () => {
      if (child?.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
    output: () => out,
  };
}
