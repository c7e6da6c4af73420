// `npm run ops -- deploy` as an operator runs it (its own process, settings from the environment or
// .env) against a Hardhat node process, then the real server started with the lines it printed.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { artifact } from '@crw/contracts';
import { Contract, JsonRpcProvider, MaxUint256, Wallet, parseEther } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchCalldata, type safeBatch } from '../src/infra/chain/safe-batch';
import { startHardhatNode, type HardhatNode } from './helpers/hardhat-node';
import { freePort } from './helpers/ports';
import { repoRoot, spawnServer, waitForHealthy } from './helpers/server-process';
import { fixtureWebDist } from './helpers/test-app';
import { createPostgresDatabase, testDbKind } from './helpers/test-database';
import { until } from './helpers/until';

const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const opsCli = path.join(repoRoot, 'server/src/cli/ops.ts');

let node: HardhatNode;
let provider: JsonRpcProvider;
const running = new Set<ChildProcess>();

beforeAll(async () => {
  node = await startHardhatNode();
  console.info(`[ops-deploy] hardhat node answered after ${node.startupMs} ms`);
  provider = new JsonRpcProvider(node.url, 31337, { staticNetwork: true, cacheTimeout: -1 });
});
afterAll(async () => {
  for (const child of running) child.kill('SIGKILL'); // left by a failed test
  provider?.destroy();
  await node?.stop();
});

/** A fresh working directory: an operator's checkout with its own .env and ./data. */
function install(dotEnv?: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'crw-deploy-'));
  if (dotEnv)
    writeFileSync(
      path.join(dir, '.env'),
      Object.entries(dotEnv)
        .map(([k, v]) => `${k}=${v}\n`)
        .join(''),
    );
  return dir;
}

/** Runs `node --import tsx server/src/cli/ops.ts deploy …` in `cwd` with only `env` (and PATH). */
function runDeploy(cwd: string, env: Record<string, string>, args: string[] = []) {
  const child = spawn(process.execPath, ['--import', tsx, opsCli, 'deploy', ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  void exited.then(() => running.delete(child));
  return {
    child,
    exited,
    output: () => out,
    async waitForOutput(text: string): Promise<void> {
      await until(
        () => {
          if (out.includes(text)) return true;
          if (child.exitCode !== null)
            throw new Error(`deploy exited before printing "${text}":\n${out}`);
          return false;
        },
        { timeoutMs: 30_000, intervalMs: 50, what: () => `deploy printing "${text}" (${out})` },
      );
    },
  };
}

/** Until `done` settles, mines a block each time the deploy has looked at the chain's head since
 * the last one (the node mines only on transactions; it prints every call it answers). */
async function mineUntil(done: Promise<unknown>): Promise<void> {
  let finished = false;
  void done.finally(() => (finished = true));
  while (!finished) {
    await node.request('evm_mine');
    const seen = node.output().length;
    await until(() => finished || node.output().includes('eth_blockNumber', seen), {
      timeoutMs: 30_000,
      what: 'the deploy asking for the next block',
    });
  }
}

function envLines(out: string): Record<string, string> {
  return Object.fromEntries([...out.matchAll(/^([A-Z_]+)=(\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
}

async function expectDeployed(operator: string, token: string, distributor: string): Promise<void> {
  expect(await provider.getCode(token)).not.toBe('0x');
  expect(await provider.getCode(distributor)).not.toBe('0x');
  const tokenContract = new Contract(token, artifact('RemeToken').abi, provider);
  const distributorContract = new Contract(
    distributor,
    artifact('RewardsDistributor').abi,
    provider,
  );
  expect(await tokenContract.getFunction('distributor')()).toBe(distributor);
  expect(await distributorContract.getFunction('token')()).toBe(token);
  // One key: the operator is the treasury, the publisher and the guardian, with no review window.
  const role = (name: string) => distributorContract.getFunction(name)();
  for (const name of ['PUBLISHER_ROLE', 'GUARDIAN_ROLE', 'DEFAULT_ADMIN_ROLE'])
    expect(await distributorContract.getFunction('hasRole')(await role(name), operator)).toBe(true);
  expect(await distributorContract.getFunction('treasury')()).toBe(operator);
  expect(await distributorContract.getFunction('reviewPeriod')()).toBe(0n);
  expect(await tokenContract.getFunction('balanceOf')(operator)).toBe(parseEther('1000000000'));
  expect(await tokenContract.getFunction('allowance')(operator, distributor)).toBe(MaxUint256);
}

describe('ops deploy against a Hardhat node process', () => {
  const operator = () => new Wallet(node.accounts[0]!);
  let printed: Record<string, string> = {};

  it('refuses without CHAIN_RPC_URL and OPERATOR_PRIVATE_KEY, naming both (exit code 1)', async () => {
    const run = runDeploy(install(), {});
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain('CHAIN_RPC_URL is not set');
    expect(run.output()).toContain('OPERATOR_PRIVATE_KEY is not set');
  });

  it('refuses while the node is down, and deploys nothing', async () => {
    await node.stop();
    const cwd = install();
    const run = runDeploy(cwd, {
      CHAIN_RPC_URL: `${node.url}/key-in-the-path`,
      OPERATOR_PRIVATE_KEY: node.accounts[0]!,
    });
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain(
      `ops: The chain node at ${node.url} (CHAIN_RPC_URL) did not answer`,
    );
    expect(run.output()).not.toContain('key-in-the-path');
    expect(existsSync(path.join(cwd, 'data'))).toBe(false);
    console.info(`[ops-deploy] hardhat node back after ${await node.start()} ms`);
  });

  it('refuses an operator without ETH, saying how much the gas needs, and sends nothing', async () => {
    const unfunded = Wallet.createRandom();
    const cwd = install();
    const run = runDeploy(cwd, {
      CHAIN_RPC_URL: node.url,
      OPERATOR_PRIVATE_KEY: unfunded.privateKey,
    });
    expect(await run.exited).toBe(1);
    expect(run.output()).toMatch(
      new RegExp(
        `ops: The operator ${unfunded.address} has 0\\.0 ETH; deploying needs up to 0\\.\\d+ ETH for gas \\(\\d+ gas at up to [\\d.]+ gwei\\)`,
      ),
    );
    expect(run.output()).toContain('Nothing was sent.');
    expect(existsSync(path.join(cwd, 'data'))).toBe(false);
  });

  let first: string;
  it('deploys both contracts from .env settings, waits for the confirmations asked and prints the .env lines', async () => {
    first = install({ CHAIN_RPC_URL: node.url, OPERATOR_PRIVATE_KEY: node.accounts[0]! });
    // No SMTP_URL, PUBLIC_URL, AUTH_SECRET…: deploy needs none of the server's production settings.
    const run = runDeploy(first, { NODE_ENV: 'production' }, ['--confirmations', '3']);
    await mineUntil(run.exited);
    expect(await run.exited, run.output()).toBe(0);
    const out = run.output();
    expect(out).toContain('Deployed on chain 31337:');
    expect(out).toContain('Waiting for 3 confirmations');
    expect(existsSync(path.join(first, 'data/deployment-31337.json'))).toBe(true);
    printed = envLines(out);
    expect(printed).toEqual({
      CHAIN_RPC_URL: node.url,
      TOKEN_ADDRESS: expect.stringMatching(/^0x/),
      DISTRIBUTOR_ADDRESS: expect.stringMatching(/^0x/),
    });
    await expectDeployed(operator().address, printed.TOKEN_ADDRESS!, printed.DISTRIBUTOR_ADDRESS!);
    const approval = /approval of the distributor: transaction (0x[0-9a-f]{64})/.exec(out)![1]!;
    expect(
      await (await provider.getTransactionReceipt(approval))!.confirmations(),
    ).toBeGreaterThanOrEqual(3);
    expect(await provider.getTransactionCount(operator().address)).toBe(3);
  });

  it('a second run sends nothing, says so and prints the same lines', async () => {
    const run = runDeploy(first, {});
    expect(await run.exited, run.output()).toBe(0);
    expect(run.output()).toContain('Already deployed on chain 31337: nothing sent.');
    expect(envLines(run.output())).toEqual(printed);
    expect(await provider.getTransactionCount(operator().address)).toBe(3);
  });

  it('a deployment killed with only the token sent is finished by a rerun, without a second token', async () => {
    const key = node.accounts[1]!;
    const address = new Wallet(key).address;
    const cwd = install();
    const env = { CHAIN_RPC_URL: node.url, OPERATOR_PRIVATE_KEY: key };
    await node.request('evm_setAutomine', [false]);
    try {
      const killed = runDeploy(cwd, env, ['--confirmations', '1']);
      await killed.waitForOutput('Waiting for 1 confirmation');
      killed.child.kill('SIGKILL');
      await killed.exited;
      const sent = killed.output();
      const token =
        /Sent RemeToken: transaction (0x[0-9a-f]{64}) \(nonce 0\), creating (0x\w{40})/.exec(sent)!;
      const distributor =
        /Sent RewardsDistributor: transaction (0x[0-9a-f]{64}) \(nonce 1\), creating (0x\w{40})/.exec(
          sent,
        )!;
      // As if it had died before sending the distributor: the node has only the token's transaction.
      expect(await node.request('hardhat_dropTransaction', [distributor[1]])).toBe(true);

      const rerun = runDeploy(cwd, env, ['--confirmations', '1']);
      await rerun.waitForOutput('Waiting for 1 confirmation of RemeToken, RewardsDistributor');
      expect(await provider.getTransactionCount(address)).toBe(0); // the token still waits to be mined
      await mineUntil(rerun.exited);
      expect(await rerun.exited, rerun.output()).toBe(0);
      const out = rerun.output();
      expect(out).not.toContain('Sent RemeToken');
      expect(out).toContain(`Sent RewardsDistributor's transaction ${distributor[1]} again`);
      expect(out).toContain(
        'Finished the deployment on chain 31337 started earlier: 1 new transaction sent.',
      );
      expect(envLines(out)).toMatchObject({
        TOKEN_ADDRESS: token[2],
        DISTRIBUTOR_ADDRESS: distributor[2],
      });
      await expectDeployed(address, token[2]!, distributor[2]!);
      expect(await provider.getTransactionCount(address)).toBe(3); // one token, one distributor, one approval
    } finally {
      await node.request('evm_setAutomine', [true]);
    }
  });

  it('with --treasury and --guardian: the supply goes to the treasury, its approval is a file for its Safe, and deploy waits for it on chain', async () => {
    const key = node.accounts[2]!;
    const operatorAddress = new Wallet(key).address;
    const treasury = new Wallet(node.accounts[3]!, provider);
    const guardian = Wallet.createRandom().address;
    const cwd = install();
    const env = { CHAIN_RPC_URL: node.url, OPERATOR_PRIVATE_KEY: key };
    const flags = ['--treasury', treasury.address, '--guardian', guardian];
    const refused = runDeploy(cwd, env, flags);
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toContain('--allowance is needed with --treasury');
    const bad = runDeploy(cwd, env, ['--treasury', 'not-an-address', '--review-hours=-1']);
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toContain('--treasury must be an address');
    expect(bad.output()).toContain('--review-hours must be a number of hours from 0 to 720');

    const run = runDeploy(cwd, env, [
      ...flags,
      '--allowance',
      '50000',
      '--confirmations',
      '1',
      '--wait-minutes',
      '2',
    ]);
    await run.waitForOutput('Waiting up to 2 minutes for the approval on chain');
    const token =
      /Sent RemeToken: transaction 0x[0-9a-f]{64} \(nonce \d+\), creating (0x\w{40})/.exec(
        run.output(),
      )![1]!;
    const distributor =
      /Sent RewardsDistributor: transaction 0x[0-9a-f]{64} \(nonce \d+\), creating (0x\w{40})/.exec(
        run.output(),
      )![1]!;
    const batch = JSON.parse(
      readFileSync(path.join(cwd, 'data/treasury-approval-31337.json'), 'utf8'),
    ) as ReturnType<typeof safeBatch>;
    expect(batch).toMatchObject({
      version: '1.0',
      chainId: '31337',
      meta: { createdFromSafeAddress: treasury.address },
      transactions: [
        {
          to: token,
          value: '0',
          contractMethod: { name: 'approve', payable: false },
          contractInputsValues: { spender: distributor, value: parseEther('50000').toString() },
        },
      ],
    });
    expect(batch.transactions).toHaveLength(1);
    // The test signs as the Safe would: the treasury's key sends the file's call.
    await (
      await treasury.sendTransaction({
        to: batch.transactions[0]!.to,
        data: batchCalldata('RemeToken', batch.transactions[0]!),
      })
    ).wait();
    expect(await run.exited, run.output()).toBe(0);
    const out = run.output();
    expect(out).toContain('The treasury approved the distributor.');
    expect(out).toContain(`minted to the treasury ${treasury.address}`);
    expect(out).toContain(`Guardians           ${guardian}`);
    expect(out).toContain('Review window       24 hours before a proposed round pays');

    const tokenContract = new Contract(token, artifact('RemeToken').abi, provider);
    const distributorContract = new Contract(
      distributor,
      artifact('RewardsDistributor').abi,
      provider,
    );
    const hasRole = async (role: string, who: string) =>
      distributorContract.getFunction('hasRole')(
        await distributorContract.getFunction(role)(),
        who,
      ) as Promise<boolean>;
    expect(await tokenContract.getFunction('balanceOf')(treasury.address)).toBe(
      parseEther('1000000000'),
    );
    expect(await tokenContract.getFunction('balanceOf')(operatorAddress)).toBe(0n);
    expect(await hasRole('PUBLISHER_ROLE', operatorAddress)).toBe(true);
    expect(await hasRole('GUARDIAN_ROLE', operatorAddress)).toBe(false);
    expect(await hasRole('DEFAULT_ADMIN_ROLE', operatorAddress)).toBe(false);
    expect(await hasRole('GUARDIAN_ROLE', guardian)).toBe(true);
    expect(await hasRole('DEFAULT_ADMIN_ROLE', treasury.address)).toBe(true);
    expect(await distributorContract.getFunction('reviewPeriod')()).toBe(BigInt(24 * 3600));

    // A rerun finds it all done and sends nothing.
    const again = runDeploy(cwd, env);
    expect(await again.exited, again.output()).toBe(0);
    expect(again.output()).toContain('Already deployed on chain 31337: nothing sent.');
  });

  describe(`a server with the printed settings (${testDbKind})`, () => {
    let dropDatabase: (() => Promise<void>) | undefined;
    afterAll(async () => dropDatabase?.());

    it('answers /api/health with the remote chain up and the deployed addresses', async () => {
      const storage: Record<string, string> = {
        DATA_DIR: install(),
        WEB_DIST_DIR: fixtureWebDist(),
      };
      if (testDbKind === 'postgres') {
        const created = await createPostgresDatabase();
        dropDatabase = created.drop;
        storage.DATABASE_URL = created.url;
      }
      const server = spawnServer({
        ...storage,
        ...printed,
        OPERATOR_PRIVATE_KEY: node.accounts[0]!,
        PORT: String(await freePort()),
      });
      try {
        await waitForHealthy(server);
        // Health reports the chain as the follower last saw it: wait for its first look at the node.
        let health: { chain: Record<string, unknown> } = { chain: {} };
        await until(
          async () => {
            health = (await (await fetch(`${server.url}/api/health`)).json()) as typeof health;
            return health.chain.status === 'up';
          },
          {
            timeoutMs: 30_000,
            intervalMs: 200,
            what: () => `the chain up (${JSON.stringify(health.chain)})`,
          },
        );
        expect(health.chain).toMatchObject({
          status: 'up',
          kind: 'remote',
          chainId: 31337,
          tokenAddress: printed.TOKEN_ADDRESS,
          distributorAddress: printed.DISTRIBUTOR_ADDRESS,
        });
      } finally {
        expect(await server.stop()).toBe(0);
      }
    });
  });
});
