// The contracts put on a separate chain node by `npm run ops -- deploy`, as an operator does for
// the production path: the environment every server process of that install then starts with.
// With `separate`, the operator's key is only the publisher: the treasury and a guardian are other
// keys, and the treasury's approval is the Safe Transaction Builder file deploy writes, signed here
// with the treasury's key as its Safe would (docs/operations.md#separate-keys).
import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { JsonRpcProvider, Wallet } from 'ethers';
import { batchCalldata, type safeBatch } from '../infra/chain/safe-batch';
import type { HardhatNode } from './hardhat-node';
import { repoRoot } from './server-process';

export interface SeparateKeys {
  treasuryKey: string;
  guardian: string;
  reviewHours: number;
  /** REME the treasury approves. */
  allowance: string;
}

export async function deployWithOps(
  node: HardhatNode,
  dataDir: string,
  separate?: SeparateKeys,
): Promise<Record<string, string>> {
  const chain = {
    CHAIN_RPC_URL: node.url,
    OPERATOR_PRIVATE_KEY: node.accounts[0]!,
    DATA_DIR: dataDir,
  };
  const args = ['--import', 'tsx', 'server/src/cli/ops.ts', 'deploy', '--confirmations', '1'];
  const options = { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', ...chain } };
  const stdout = separate
    ? await deployWithTreasury(
        node,
        dataDir,
        separate,
        [
          ...args,
          '--treasury',
          new Wallet(separate.treasuryKey).address,
          '--guardian',
          separate.guardian,
          '--review-hours',
          String(separate.reviewHours),
          '--allowance',
          separate.allowance,
          '--wait-minutes',
          '2',
        ],
        options,
      )
    : (await promisify(execFile)(process.execPath, args, options)).stdout;
  const line = (name: string) => {
    const value = new RegExp(`^${name}=(\\S+)$`, 'm').exec(stdout)?.[1];
    if (!value) throw new Error(`ops deploy printed no ${name}:\n${stdout}`);
    return value;
  };
  return {
    ...chain,
    TOKEN_ADDRESS: line('TOKEN_ADDRESS'),
    DISTRIBUTOR_ADDRESS: line('DISTRIBUTOR_ADDRESS'),
    CHAIN_CONFIRMATIONS: '1',
  };
}

/** Runs deploy, signs the approval file it writes with the treasury's key, and waits for it to end. */
async function deployWithTreasury(
  node: HardhatNode,
  dataDir: string,
  separate: SeparateKeys,
  args: string[],
  options: { cwd: string; env: Record<string, string> },
): Promise<string> {
  const child = spawn(process.execPath, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const file = path.join(dataDir, 'treasury-approval-31337.json');
  const started = Date.now();
  while (!existsSync(file) || !out.includes('Waiting up to')) {
    if (child.exitCode !== null || Date.now() - started > 60_000) {
      child.kill();
      throw new Error(`ops deploy wrote no approval file:\n${out}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const batch = JSON.parse(readFileSync(file, 'utf8')) as ReturnType<typeof safeBatch>;
  const provider = new JsonRpcProvider(node.url, 31337, { staticNetwork: true });
  try {
    const treasury = new Wallet(separate.treasuryKey, provider);
    for (const transaction of batch.transactions)
      await (
        await treasury.sendTransaction({
          to: transaction.to,
          data: batchCalldata('RemeToken', transaction),
        })
      ).wait();
  } finally {
    provider.destroy();
  }
  if ((await exited) !== 0) throw new Error(`ops deploy failed:\n${out}`);
  return out;
}
