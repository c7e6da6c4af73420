// The chain follower against a Hardhat node in its own process, as a remote chain (CHAIN_RPC_URL):
// reorgs rolled back and re-read, the node going away and coming back, node calls that do not grow
// with the number of dashboards, and one leading process among two on one database.
import type { UserDetails } from '@crw/core';
import { deployContracts } from '@crw/contracts';
import { Contract, JsonRpcProvider, Wallet, parseEther, toQuantity } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendClaim, tokenInterface } from './helpers/chain-client';
import { startChainNode, type ChainNodeProcess } from './helpers/chain-node-process';
import {
  cloneMemberKeys,
  joinAndConfirm,
  makeMemberKeys,
  signedInCookie,
  type MemberKeys,
} from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { openTestDatabase, testDbKind } from './helpers/test-database';
import { until } from './helpers/until';

const reme = (n: number) => parseEther(String(n)).toString();
let node: ChainNodeProcess;
const opened: TestApp[] = [];

beforeAll(async () => {
  node = await startChainNode();
}, 120_000);
afterAll(async () => {
  for (const t of opened.reverse()) await t.close();
  await node?.stop();
});

interface Deployment {
  key: string;
  token: string;
  distributor: string;
  startBlock: number;
  operator: Wallet;
}

/** Deploys both contracts from `key`'s account (funded here): with a fresh key, at nonces 0 to 2. */
async function deploy(key = Wallet.createRandom().privateKey): Promise<Deployment> {
  const provider = new JsonRpcProvider(node.url, 31337, {
    staticNetwork: true,
    pollingInterval: 50,
    cacheTimeout: -1,
  });
  const operator = new Wallet(key, provider);
  await node.request('hardhat_setBalance', [operator.address, toQuantity(parseEther('100'))]);
  const startBlock = Number(await node.request('eth_blockNumber')) + 1;
  const { token, distributor } = await deployContracts(operator, parseEther('1000000'));
  return {
    key,
    token: await token.getAddress(),
    distributor: await distributor.getAddress(),
    startBlock,
    operator,
  };
}

const remoteEnv = (d: Deployment, extra: Record<string, string> = {}) => ({
  CHAIN_RPC_URL: node.url,
  TOKEN_ADDRESS: d.token,
  DISTRIBUTOR_ADDRESS: d.distributor,
  OPERATOR_PRIVATE_KEY: d.key,
  CHAIN_START_BLOCK: String(d.startBlock),
  CHAIN_POLL_INTERVAL_MS: '200',
  AUTH_RATE_LIMIT_PER_IP: '1000',
  ...extra,
});

async function app(opts: Parameters<typeof buildTestApp>[0]): Promise<TestApp> {
  const t = await buildTestApp(opts);
  opened.push(t);
  return t;
}

async function me(t: TestApp, cookie: string): Promise<UserDetails> {
  const res = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as UserDetails;
}

const health = async (t: TestApp) =>
  (
    await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { authorization: `Bearer ${t.services.operatorKey}` },
    })
  ).json();

/** A member in round 1 with ETH for the fee. */
async function memberInRound(t: TestApp): Promise<{ member: MemberKeys; cookie: string }> {
  const member = await makeMemberKeys();
  await joinAndConfirm(t.app, t.services.database.db, member);
  const published = await t.app.inject({
    method: 'POST',
    url: '/api/operator/distributions',
    headers: { authorization: `Bearer ${t.services.operatorKey}` },
  });
  expect(published.json()).toMatchObject({ index: 1, outcome: 'published' });
  await node.request('hardhat_setBalance', [member.address, toQuantity(parseEther('1'))]);
  return { member, cookie: await signedInCookie(t.app, member) };
}

async function claimAll(
  t: TestApp,
  member: MemberKeys,
  cookie: string,
  distributor: string,
): Promise<number> {
  const claim = (
    await t.app.inject({ method: 'GET', url: '/api/claim', headers: { cookie } })
  ).json();
  const sent = await sendClaim(t.app, member.privateKey, distributor, [
    member.address,
    BigInt(claim.distributedTokens),
    claim.proof,
    claim.distributionIndex,
  ]);
  expect(sent.receipt?.status).toBe('0x1');
  return Number(sent.receipt!.blockNumber);
}

describe(`the chain follower on a remote node (${testDbKind})`, () => {
  it('rolls back a reorganised chain and re-reads it: a claim reverted away, another transfer mined instead', async () => {
    const d = await deploy();
    const t = await app({ env: remoteEnv(d, { CHAIN_CONFIRMATIONS: '0' }) });
    const { member, cookie } = await memberInRound(t);
    await t.services.follower.syncNow();
    const snapshot = await node.request<string>('evm_snapshot');

    const claimBlock = await claimAll(t, member, cookie, d.distributor);
    await t.services.follower.syncNow();
    expect((await me(t, cookie)).tokens).toMatchObject({
      claimed: reme(200),
      remeHeld: reme(200),
      forClaiming: '0',
      asOf: { block: claimBlock, chainReachable: true },
    });

    await node.request('evm_revert', [snapshot]);
    const token = new Contract(d.token, tokenInterface, d.operator);
    await (
      (await token.getFunction('transfer')(member.address, parseEther('7'))) as {
        wait(): Promise<unknown>;
      }
    ).wait();
    await node.request('hardhat_mine', ['0x2']);
    const head = Number(await node.request('eth_blockNumber'));
    expect(head).toBeGreaterThan(claimBlock);
    await t.services.follower.syncNow();

    expect((await me(t, cookie)).tokens).toMatchObject({
      claimed: '0',
      remeHeld: reme(7),
      forClaiming: reme(200),
      asOf: { block: head, chainReachable: true },
    });
    const events = await t.services.database.db
      .selectFrom('chain_events')
      .select(['kind', 'amount'])
      .where('to_address', '=', member.address.toLowerCase())
      .execute();
    expect(events).toEqual([{ kind: 'transfer', amount: reme(7) }]);
    expect(t.logs).toContainEqual(
      expect.objectContaining({
        msg: 'chain follower: the chain reorganised; rolled back to the last block it still has',
        from: expect.any(Number) as number,
      }),
    );
  });

  it('calls the node as often with 1,000 dashboards polling /api/me as with none: only the follower calls it', async () => {
    const d = await deploy();
    const t = await app({ env: remoteEnv(d, { CHAIN_POLL_INTERVAL_MS: '500' }) });
    const base = await makeMemberKeys();
    const members = [
      base,
      ...(await Promise.all(Array.from({ length: 19 }, () => cloneMemberKeys(base)))),
    ];
    for (const m of members) await joinAndConfirm(t.app, t.services.database.db, m);
    const cookies = await Promise.all(members.map((m) => signedInCookie(t.app, m)));
    await expect.poll(() => t.services.follower.leading).toBe(true);

    let passes = 0;
    t.services.follower.afterPass(() => (passes += 1));
    /** Resolves once the follower has made `more` passes after this call. */
    const morePasses = (more: number) => {
      const target = passes + more;
      return until(() => passes >= target, { what: `${more} more follower passes` });
    };
    const measure = async (dashboards: number) => {
      const total = t.services.chain.node.calls.total;
      const follower = t.services.follower.calls.total;
      const started = Date.now();
      // Each dashboard polls once per 10 s (DASHBOARD_REFRESH_MS): `dashboards` requests at once.
      // The window is counted in the follower's passes, not in seconds: it spans the polls and at
      // least three passes, the last one after every poll has been answered.
      const polls = Array.from({ length: dashboards }, (_, i) => cookies[i % cookies.length]!);
      await Promise.all([
        (async () => {
          for (let i = 0; i < polls.length; i += 25)
            await Promise.all(polls.slice(i, i + 25).map((cookie) => me(t, cookie)));
          await morePasses(1);
        })(),
        morePasses(3),
      ]);
      const minutes = (Date.now() - started) / 60_000;
      const calls = t.services.chain.node.calls.total - total;
      const byFollower = t.services.follower.calls.total - follower;
      return {
        perMinute: Math.round(calls / minutes),
        notFollower: calls - byFollower,
        byFollower,
      };
    };
    const alone = await measure(0);
    const withDashboards = await measure(1_000);
    console.info(
      `[follower] node calls per minute: ${alone.perMinute} with no dashboard, ${withDashboards.perMinute} with 1,000 dashboards polling /api/me (${withDashboards.notFollower} of them not the follower's)`,
    );
    expect(alone.byFollower).toBeGreaterThan(0);
    expect(withDashboards.byFollower).toBeGreaterThan(0);
    expect(alone.notFollower).toBe(0);
    expect(withDashboards.notFollower).toBe(0);
  });

  it('with two server processes on one database only one follows; closing it lets the other take over', async () => {
    const d = await deploy();
    const env = remoteEnv(d, { CHAIN_CONFIRMATIONS: '0' });
    const database = await openTestDatabase();
    const first = await buildTestApp({ database, env });
    const second = await app({ sameDatabaseAs: first, env });
    try {
      await expect.poll(() => first.services.follower.leading).toBe(true);
      const member = await makeMemberKeys();
      await joinAndConfirm(first.app, database.database.db, member);
      const cookie = await signedInCookie(second.app, member);
      const token = new Contract(d.token, tokenInterface, d.operator);
      const send = async (n: number) =>
        (
          (await token.getFunction('transfer')(member.address, parseEther(String(n)))) as {
            wait(): Promise<unknown>;
          }
        ).wait();

      await send(5);
      await expect.poll(async () => (await me(second, cookie)).tokens.remeHeld).toBe(reme(5));
      expect(second.services.follower.leading).toBe(false);
      expect(second.services.follower.calls.total).toBe(0);
      expect((await health(second)).chain.follower).toMatchObject({
        leading: false,
        blocksBehind: 0,
      });

      await first.close();
      await expect.poll(() => second.services.follower.leading, { timeout: 10_000 }).toBe(true);
      await send(6);
      await expect.poll(async () => (await me(second, cookie)).tokens.remeHeld).toBe(reme(11));
      expect(second.services.follower.calls.total).toBeGreaterThan(0);
      expect((await health(second)).chain.follower).toMatchObject({
        leading: true,
        blocksBehind: 0,
      });
    } finally {
      await first.close().catch(() => undefined);
    }
    opened.splice(opened.indexOf(second), 1);
    await second.close();
    await database.drop();
  });

  // Last: the node's restart is a new chain.
  it('answers from the last figures, marked stale, while the node is down, and follows again once it is back', async () => {
    const key = Wallet.createRandom().privateKey;
    const d = await deploy(key);
    const t = await app({ env: remoteEnv(d, { CHAIN_CONFIRMATIONS: '0' }) });
    const { member, cookie } = await memberInRound(t);
    const claimBlock = await claimAll(t, member, cookie, d.distributor);
    await t.services.follower.syncNow();
    expect((await me(t, cookie)).tokens).toMatchObject({
      claimed: reme(200),
      asOf: { block: claimBlock, chainReachable: true },
    });

    await node.stop();
    await t.services.follower.syncNow();
    const stale = await me(t, cookie);
    expect(stale.tokens).toMatchObject({
      claimed: reme(200),
      remeHeld: reme(200),
      forClaiming: '0',
      asOf: { block: claimBlock, chainReachable: false },
    });
    await expect
      .poll(async () => (await me(t, cookie)).tokens.asOf.ageSeconds, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(2);
    const down = await health(t);
    expect(down.status).toBe('ok');
    expect(down.chain).toMatchObject({
      status: 'down',
      blockNumber: claimBlock,
      follower: { leading: true, processedBlock: claimBlock, blocksBehind: 0 },
    });
    expect(down.chain.follower.secondsSinceSuccess).toBeGreaterThanOrEqual(2);
    expect(down.chain.follower.lastError).toBe('the chain node could not be reached');
    const fee = await t.app.inject({
      method: 'GET',
      url: '/api/claim/fee-balance',
      headers: { cookie },
    });
    expect(fee.statusCode).toBe(503);
    expect(fee.json()).toMatchObject({ code: 'chain_unavailable' });

    await node.start();
    // Hardhat kept nothing: past CHAIN_START_BLOCK, the same deployer puts the contracts at the same addresses again.
    await node.request('hardhat_mine', [toQuantity(d.startBlock)]);
    expect(await deploy(key)).toMatchObject({ token: d.token, distributor: d.distributor });
    await expect.poll(async () => (await health(t)).chain.status, { timeout: 15_000 }).toBe('up');
    await t.services.follower.syncNow();
    const head = Number(await node.request('eth_blockNumber'));
    const back = await me(t, cookie);
    expect(back.tokens).toMatchObject({
      claimed: '0',
      remeHeld: '0',
      asOf: { block: head, chainReachable: true },
    });
    expect(back.tokens.asOf.ageSeconds).toBeLessThanOrEqual(1);
    expect(t.logs).toContainEqual(
      expect.objectContaining({ msg: 'chain follower: following again' }),
    );
    expect(
      (
        await t.app.inject({ method: 'GET', url: '/api/claim/fee-balance', headers: { cookie } })
      ).json(),
    ).toEqual({ ethBalance: '0' });
  });
});
