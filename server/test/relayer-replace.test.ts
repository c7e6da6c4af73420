// A stuck batch. The chain is a Hardhat node process whose mining is
// paused (no automine, no interval mining), so the relayer's batch waits in its pool; after
// RELAYER_REPLACE_AFTER_SECONDS it is signed again, same nonce and calldata, both fees raised; once
// a block is mined exactly one version is in it, once, the claims are confirmed and the spend
// recorded is that transaction's real fee. And a block mined at the worst moment of the relayer's
// check of a stuck batch (after it found no receipt, before it reads its nonce) leaves the batch
// recorded as mined, not given up as if another transaction had taken its nonce.
import {
  claimRequestDomain,
  claimRequestTypes,
  CLAIM_REQUEST_LIFETIME_S,
  type ClaimRequest,
} from '@crw/core';
import { deployContracts } from '@crw/contracts';
import { Contract, JsonRpcProvider, Transaction, Wallet, parseEther } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RelayerAttempt } from '../src/infra/db/schema';
import { tokenInterface } from './helpers/chain-client';
import { startHardhatNode, type HardhatNode } from './helpers/hardhat-node';
import {
  cloneMemberKeys,
  joinAndConfirm,
  makeMemberKeys,
  ORIGIN,
  signedInCookie,
  type MemberKeys,
} from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';
import { until as untilMet, untilRead } from './helpers/until';

let node: HardhatNode;
let provider: JsonRpcProvider;
let t: TestApp;
let base: MemberKeys;
let token: Contract;
let relayer: string;

beforeAll(async () => {
  node = await startHardhatNode();
  provider = new JsonRpcProvider(node.url, 31337, { staticNetwork: true, cacheTimeout: -1 });
  const operator = new Wallet(node.accounts[0]!, provider);
  const startBlock = (await provider.getBlockNumber()) + 1;
  const deployed = await deployContracts(operator, parseEther('1000000'));
  token = new Contract(await deployed.token.getAddress(), tokenInterface, provider);
  relayer = new Wallet(node.accounts[1]!).address;
  t = await buildTestApp({
    env: {
      CHAIN_RPC_URL: node.url,
      TOKEN_ADDRESS: await deployed.token.getAddress(),
      DISTRIBUTOR_ADDRESS: await deployed.distributor.getAddress(),
      OPERATOR_PRIVATE_KEY: node.accounts[0]!,
      CHAIN_START_BLOCK: String(startBlock),
      CHAIN_CONFIRMATIONS: '0',
      CHAIN_POLL_INTERVAL_MS: '200',
      SPONSOR_CLAIMS: 'true',
      RELAYER_PRIVATE_KEY: node.accounts[1]!,
      RELAYER_REPLACE_AFTER_SECONDS: '1',
      // Long enough for the members' requests, sent together, to make one batch.
      RELAYER_BATCH_WAIT_MS: '500',
    },
  });
  base = await makeMemberKeys();
}, 90_000);
afterAll(async () => {
  await node?.request('evm_setAutomine', [true]).catch(() => undefined);
  await t?.close();
  provider?.destroy();
  await node?.stop();
});

const db = () => t.services.database.db;

async function member(): Promise<{ keys: MemberKeys; cookie: string }> {
  const keys = await cloneMemberKeys(base);
  await joinAndConfirm(t.app, db(), keys);
  return { keys, cookie: await signedInCookie(t.app, keys) };
}

/** `count` new members in a newly published round, indexed by the follower. */
async function membersInNewRound(count: number) {
  const members = [];
  for (let i = 0; i < count; i++) members.push(await member());
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/operator/distributions',
    headers: { authorization: `Bearer ${t.services.operatorKey}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  await t.services.follower.syncNow();
  return members;
}

/** The member's signed claim request for everything the round gives them. */
async function signedClaim({ keys, cookie }: { keys: MemberKeys; cookie: string }) {
  const claim = (
    await t.app.inject({ method: 'GET', url: '/api/claim', headers: { cookie } })
  ).json() as { distributedTokens: string; distributionIndex: number };
  const request: ClaimRequest = {
    account: keys.address,
    cumulativeAmount: claim.distributedTokens,
    round: claim.distributionIndex,
    deadline: Math.floor(Date.now() / 1000) + CLAIM_REQUEST_LIFETIME_S,
  };
  const domain = claimRequestDomain(
    t.services.chain.chainId,
    String(t.services.chain.distributor.target),
  );
  return {
    ...request,
    signature: await new Wallet(keys.privateKey).signTypedData(domain, claimRequestTypes, request),
  };
}

async function postClaim(cookie: string, body: object): Promise<void> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/claim/sponsored',
    headers: { cookie, origin: ORIGIN },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(202);
}

/** The member's signed claim request, sent: queued. */
async function requestClaim(member: { keys: MemberKeys; cookie: string }): Promise<void> {
  await postClaim(member.cookie, await signedClaim(member));
}

/** The members' signed requests, signed first and then sent together: one batch (RELAYER_BATCH_WAIT_MS). */
async function requestClaimsTogether(
  members: Array<{ keys: MemberKeys; cookie: string }>,
): Promise<void> {
  const bodies = await Promise.all(members.map(signedClaim));
  await Promise.all(members.map((m, i) => postClaim(m.cookie, bodies[i]!)));
}

const until = <T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> => untilRead(read, done, { what, timeoutMs, intervalMs: 50 });

/** Sets the relayer's RELAYER_BATCH_WAIT_MS and resolves once the relayer has read it: it does
 * when it schedules its next pass (the one already scheduled keeps its time). */
async function setBatchWait(settings: { batchWaitMs: number }, ms: number): Promise<void> {
  let read = false;
  const plain = (value: number) =>
    Object.defineProperty(settings, 'batchWaitMs', {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  Object.defineProperty(settings, 'batchWaitMs', {
    enumerable: true,
    configurable: true,
    get: () => {
      read = true;
      plain(ms);
      return ms;
    },
    set: plain,
  });
  await untilMet(() => read, { timeoutMs: 10_000, what: 'the relayer reading its batch wait' });
}

const txRow = (nonce: number) =>
  db().selectFrom('relayer_transactions').selectAll().where('nonce', '=', nonce).executeTakeFirst();
const attemptsOf = (row: { attempts: unknown } | undefined) =>
  (row?.attempts ?? []) as RelayerAttempt[];
const claimsOf = (accounts: string[]) =>
  db()
    .selectFrom('sponsored_claims')
    .select(['account', 'status', 'reason', 'tx_nonce', 'spent_wei'])
    .where(
      'account',
      'in',
      accounts.map((a) => a.toLowerCase()),
    )
    .execute();

/** The node's own receipt (effectiveGasPrice as it reports it), or null while not mined. */
async function nodeReceipt(hash: string) {
  const r = await node.request<{
    status: string;
    blockNumber: string;
    gasUsed: string;
    effectiveGasPrice: string;
  } | null>('eth_getTransactionReceipt', [hash]);
  return (
    r && {
      status: Number(r.status),
      blockNumber: Number(r.blockNumber),
      gasUsed: BigInt(r.gasUsed),
      effectiveGasPrice: BigInt(r.effectiveGasPrice),
    }
  );
}

/** The relayer's transactions in block `n`. */
async function relayerTxsIn(n: number) {
  const block = await provider.getBlock(n, true);
  return block!.prefetchedTransactions.filter((tx) => tx.from === relayer);
}

describe(`a stuck sponsored-claims batch on a Hardhat node process (${testDbKind})`, () => {
  it('is replaced with both fees raised, same nonce and calldata; one version is mined once; the claims are confirmed at its real fee', async () => {
    const members = await membersInNewRound(3);
    const accounts = members.map((m) => m.keys.address);
    const nonce = await provider.getTransactionCount(relayer, 'latest');
    const balanceBefore = await provider.getBalance(relayer);

    await node.request('evm_setAutomine', [false]);
    let minedAt: number;
    try {
      // One batch of the three, however slow the machine: for this batch the relayer waits 5 s, not
      // 500 ms (on a loaded machine three requests took longer than that, and split the batch). The
      // setting takes effect when the pass already scheduled has run and the next is scheduled.
      const settings = t.services.relayer!.settings as { batchWaitMs: number };
      try {
        await setBatchWait(settings, 5_000);
        await requestClaimsTogether(members);
        await until(
          'the batch sent',
          () => txRow(nonce),
          (row) => attemptsOf(row).length >= 1,
        );
      } finally {
        settings.batchWaitMs = 500;
      }
      const sent = await txRow(nonce);
      expect(sent?.status).toBe('pending');
      expect((await claimsOf(accounts)).map((c) => [c.status, Number(c.tx_nonce)])).toEqual(
        accounts.map(() => ['sent', nonce]),
      );
      const replaced = await until(
        'the batch replaced',
        () => txRow(nonce),
        (row) => attemptsOf(row).length >= 2,
      );
      const [original, replacement] = attemptsOf(replaced);
      // Waited its RELAYER_REPLACE_AFTER_SECONDS in the pool, unmined; the pool now holds the replacement only.
      expect(
        Date.parse(replacement!.signedAt) - Date.parse(original!.signedAt),
      ).toBeGreaterThanOrEqual(1_000);
      expect(await nodeReceipt(original!.hash)).toBeNull();
      expect(await node.request('eth_getTransactionByHash', [original!.hash])).toBeNull();
      minedAt = Number(await node.request('eth_blockNumber')) + 1;
      await node.request('evm_mine');
    } finally {
      await node.request('evm_setAutomine', [true]);
    }

    // Every version (the relayer may have signed a third before the block): same transaction, higher fees.
    await until(
      'the claims confirmed',
      () => claimsOf(accounts),
      (claims) => claims.every((c) => c.status === 'confirmed'),
    );
    const row = (await txRow(nonce))!;
    const attempts = attemptsOf(row);
    const versions = attempts.map((a) => Transaction.from(a.raw));
    const [first] = versions;
    for (const [i, v] of versions.entries()) {
      expect(v.hash).toBe(attempts[i]!.hash);
      expect(v.from).toBe(relayer);
      expect({
        nonce: v.nonce,
        to: v.to,
        data: v.data,
        gasLimit: v.gasLimit,
        value: v.value,
        chainId: v.chainId,
        type: v.type,
      }).toEqual({
        nonce,
        to: first!.to,
        data: first!.data,
        gasLimit: first!.gasLimit,
        value: 0n,
        chainId: 31337n,
        type: 2,
      });
      if (i === 0) continue;
      const previous = versions[i - 1]!;
      expect(v.maxFeePerGas! * 100n, `version ${i} maxFeePerGas`).toBeGreaterThanOrEqual(
        previous.maxFeePerGas! * 110n,
      );
      expect(
        v.maxPriorityFeePerGas! * 100n,
        `version ${i} maxPriorityFeePerGas`,
      ).toBeGreaterThanOrEqual(previous.maxPriorityFeePerGas! * 110n);
    }
    expect(versions.length).toBeGreaterThanOrEqual(2);

    // Exactly one version mined, once, in the block mined; the nonce used once.
    const receipts = await Promise.all(attempts.map((a) => nodeReceipt(a.hash)));
    const mined = receipts.flatMap((r, i) => (r ? [{ hash: attempts[i]!.hash, receipt: r }] : []));
    expect(mined).toHaveLength(1);
    const [{ hash, receipt }] = mined as [(typeof mined)[number]];
    expect(receipt).toMatchObject({ status: 1, blockNumber: minedAt! });
    expect((await relayerTxsIn(minedAt!)).map((tx) => tx.hash)).toEqual([hash]);
    expect(await provider.getTransactionCount(relayer, 'latest')).toBe(nonce + 1);

    // Recorded: mined, that version, its real fee; the claims' shares add up to it; the relayer paid it and nothing else.
    const fee = receipt.gasUsed * receipt.effectiveGasPrice;
    expect(row).toMatchObject({ status: 'mined', mined_hash: hash, error: null });
    expect(Number(row.block_number)).toBe(minedAt!);
    expect(BigInt(row.gas_used!)).toBe(receipt.gasUsed);
    expect(BigInt(row.cost_wei!)).toBe(fee);
    const claims = await claimsOf(accounts);
    expect(claims.map((c) => [c.status, c.reason])).toEqual(
      accounts.map(() => ['confirmed', null]),
    );
    expect(claims.reduce((sum, c) => sum + BigInt(c.spent_wei!), 0n)).toBe(fee);
    expect(await provider.getBalance(relayer)).toBe(balanceBefore - fee);
    for (const account of accounts)
      expect(await token.getFunction('balanceOf')(account)).toBe(parseEther('200'));
    expect(
      await db()
        .selectFrom('relayer_transactions')
        .select('nonce')
        .where('nonce', '>', nonce)
        .execute(),
    ).toEqual([]);

    const mineV = versions[attempts.findIndex((a) => a.hash === hash)]!;
    console.info(
      `[relayer-replace] ${versions.length} versions of nonce ${nonce}, maxFeePerGas ${versions.map((v) => `${Number(v.maxFeePerGas) / 1e9}`).join(' → ')} gwei, ` +
        `priority ${versions.map((v) => `${Number(v.maxPriorityFeePerGas) / 1e9}`).join(' → ')} gwei; version ${versions.indexOf(mineV) + 1} mined: ` +
        `${receipt.gasUsed} gas at ${Number(receipt.effectiveGasPrice) / 1e9} gwei = ${fee} wei`,
    );
  });

  it('is replaced in time while members keep queueing claims (each request wakes the relayer)', async () => {
    const [first, ...others] = await membersInNewRound(15);
    const accounts = [first!, ...others].map((m) => m.keys.address);
    const nonce = await provider.getTransactionCount(relayer, 'latest');

    await node.request('evm_setAutomine', [false]);
    let streamMs: number;
    let during: RelayerAttempt[];
    try {
      await requestClaim(first!);
      const sent = await until(
        'the batch sent',
        () => txRow(nonce),
        (row) => attemptsOf(row).length >= 1,
      );
      const signedAt = Date.parse(attemptsOf(sent)[0]!.signedAt);
      // A claim every ~250 ms, more often than RELAYER_BATCH_WAIT_MS (500), for longer than
      // RELAYER_REPLACE_AFTER_SECONDS and a pass: the stuck batch must be replaced meanwhile.
      for (const m of others) {
        await requestClaim(m);
        // The pace is what is tested (claims arriving more often than the batch wait, for longer
        // than the replacement age): real time must pass between them, no event stands in for it.
        await new Promise((r) => setTimeout(r, 200));
      }
      during = attemptsOf(await txRow(nonce));
      streamMs = Date.now() - signedAt;
      await node.request('evm_mine');
    } finally {
      await node.request('evm_setAutomine', [true]);
    }
    expect(streamMs).toBeGreaterThan(2_500);
    expect(
      during.length,
      `versions after ${streamMs} ms of claims arriving`,
    ).toBeGreaterThanOrEqual(2);
    // The batch mined, then the claims that waited behind it sent and mined.
    await until(
      'every claim confirmed',
      () => claimsOf(accounts),
      (claims) => claims.every((c) => c.status === 'confirmed'),
      30_000,
    );
    expect((await txRow(nonce))!.status).toBe('mined');
    for (const account of accounts)
      expect(await token.getFunction('balanceOf')(account)).toBe(parseEther('200'));
  });

  it('a block mined between its finding no receipt and its reading the nonce: the batch is recorded as mined, not given up', async () => {
    const members = await membersInNewRound(2);
    const accounts = members.map((m) => m.keys.address);
    const nonce = await provider.getTransactionCount(relayer, 'latest');
    const chainNode = t.services.chain.node;
    const request = chainNode.request;
    let minedAt: number | undefined;
    let minedTime = Infinity;

    await node.request('evm_setAutomine', [false]);
    try {
      await requestClaimsTogether(members);
      const sent = await until(
        'the batch sent',
        () => txRow(nonce),
        (row) => attemptsOf(row).length >= 1,
      );
      // The relayer looks for the oldest version's receipt last: the block comes just after it finds none.
      const oldest = attemptsOf(sent)[0]!.hash;
      chainNode.request = async (args) => {
        const answer = await request(args);
        if (
          minedAt === undefined &&
          args.method === 'eth_getTransactionReceipt' &&
          args.params?.[0] === oldest &&
          answer === null
        ) {
          minedAt = Number(await node.request('eth_blockNumber')) + 1;
          // Late enough that the version in the pool is due for replacement when the relayer looks at it next:
          // the relayer measures a version's age on the clock (RELAYER_REPLACE_AFTER_SECONDS = 1), so
          // real time must pass; no event stands in for it.
          await new Promise((r) => setTimeout(r, 1_100));
          await node.request('evm_mine');
          minedTime = Date.now();
        }
        return answer;
      };
      await until(
        'a block mined in the relayer’s check',
        async () => minedAt,
        (n) => n !== undefined,
      );
      await until(
        'the batch settled',
        () => txRow(nonce),
        (row) => row?.status !== 'pending',
      );
    } finally {
      chainNode.request = request;
      await node.request('evm_setAutomine', [true]);
    }

    const row = (await txRow(nonce))!;
    const [mined] = await relayerTxsIn(minedAt!);
    expect(mined?.nonce).toBe(nonce);
    expect(attemptsOf(row).map((a) => a.hash)).toContain(mined!.hash);
    // No version signed for a nonce already mined.
    expect(attemptsOf(row).filter((a) => Date.parse(a.signedAt) >= minedTime)).toEqual([]);
    const receipt = (await nodeReceipt(mined!.hash))!;
    expect(row).toMatchObject({ status: 'mined', mined_hash: mined!.hash, error: null });
    expect(BigInt(row.cost_wei!)).toBe(receipt.gasUsed * receipt.effectiveGasPrice);
    await until(
      'the claims confirmed',
      () => claimsOf(accounts),
      (claims) => claims.every((c) => c.status !== 'sent' && c.status !== 'queued'),
    );
    const claims = await claimsOf(accounts);
    expect(claims.map((c) => [c.status, c.reason, Number(c.tx_nonce)])).toEqual(
      accounts.map(() => ['confirmed', null, nonce]),
    );
    expect(claims.reduce((sum, c) => sum + BigInt(c.spent_wei!), 0n)).toBe(
      receipt.gasUsed * receipt.effectiveGasPrice,
    );
    // Nothing sent again for these claims, however many passes the relayer makes: no other
    // transaction, the nonce used once.
    for (let pass = 0; pass < 3; pass++) await t.services.relayer!.passNow();
    expect(
      await db()
        .selectFrom('relayer_transactions')
        .select('nonce')
        .where('nonce', '>', nonce)
        .execute(),
    ).toEqual([]);
    expect(await provider.getTransactionCount(relayer, 'latest')).toBe(nonce + 1);
  });
});
