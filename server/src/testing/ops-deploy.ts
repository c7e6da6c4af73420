// The contracts put on a separate chain node by `npm run ops -- deploy`, as an operator does for
// the production path: the environment every server process of that install then starts with.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { HardhatNode } from './hardhat-node';
import { repoRoot } from './server-process';

export async function deployWithOps(
  node: HardhatNode,
  dataDir: string,
): Promise<Record<string, string>> {
  const chain = {
    CHAIN_RPC_URL: node.url,
    OPERATOR_PRIVATE_KEY: node.accounts[0]!,
    DATA_DIR: dataDir,
  };
  const deployed = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'server/src/cli/ops.ts', 'deploy', '--confirmations', '1'],
    { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', ...chain } },
  );
  const line = (name: string) => {
    const value = new RegExp(`^${name}=(\\S+)$`, 'm').exec(deployed.stdout)?.[1];
    if (!value) throw new Error(`ops deploy printed no ${name}:\n${deployed.stdout}`);
    return value;
  };
  return {
    ...chain,
    TOKEN_ADDRESS: line('TOKEN_ADDRESS'),
    DISTRIBUTOR_ADDRESS: line('DISTRIBUTOR_ADDRESS'),
    CHAIN_CONFIRMATIONS: '1',
  };
}
