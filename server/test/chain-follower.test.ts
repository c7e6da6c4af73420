// The chain follower on the embedded chain: a claim and a published round reach its
// tables as they are mined, members' reads then make no call to the node, and a restart resumes
// from the last processed block without counting anything twice.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ClaimData, UserDetails } from '@crw/core';
import { parseEther } from 'ethers';
import { afterAll, describe, expect, it } from 'vitest';
import { sendClaim } from './helpers/chain-client';
import {
  cloneMemberKeys,
  joinAndConfirm,
  makeMemberKeys,
  signedInCookie,
  type MemberKeys,
} from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { openTestDatabase, testDbKind, type TestDatabase } from './helpers/test-database';

const reme = (n: number) => parseEther(String(n)).toString();
// No polling: on the embedded chain the follower runs after each mined transaction, and only then.
const env = { CHAIN_POLL_INTERVAL_MS: '3600000', AUTH_RATE_LIMIT_PER_IP: '1000' };
const opened: Array<{ close(): Promise<void> } | TestDatabase> = [];
afterAll(async () => {
  for (const thing of opened.reverse()) await ('drop' in thing ? thing.drop() : thing.close());
});

async function get<T>(t: TestApp, url: string, cookie: string): Promise<T> {
  const res = await t.app.inject({ method: 'GET', url, headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
}

async function publishRound(t: TestApp) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/operator/distributions',
    headers: { authorization: `Bearer ${t.services.operatorKey}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { index: number; root: string; txHash: string };
}

/** Funds `member` with ETH for the fee and claims everything their leaf holds, through /rpc. */
async function claimAll(t: TestApp, member: MemberKeys, cookie: string) {
  await t.app.inject({
    method: 'POST',
    url: '/api/operator/fund',
    headers: { authorization: `Bearer ${t.services.operatorKey}` },
    payload: { address: member.address, eth: '0.05' },
  });
  const claim = await get<ClaimData>(t, '/api/claim', cookie);
  const sent = await sendClaim(
    t.app,
    member.privateKey,
    t.services.chain.distributor.target as string,
    [member.address, BigInt(claim.distributedTokens), claim.proof, claim.distributionIndex],
  );
  expect(sent.receipt?.status).toBe('0x1');
  return sent.hash!;
}

const eventsOf = (t: TestApp) =>
  t.services.database.db
    .selectFrom('chain_events')
    .select([
      'block_number',
      'log_index',
      'kind',
      'from_address',
      'to_address',
      'amount',
      'round_index',
    ])
    .orderBy('block_number')
    .orderBy('log_index')
    .execute();
const walletOf = (t: TestApp, address: string) =>
  t.services.database.db
    .selectFrom('chain_wallets')
    .select(['reme_balance', 'claimed'])
    .where('address', '=', address.toLowerCase())
    .executeTakeFirst();

describe(`the chain follower on the embedded chain (${testDbKind})`, () => {
  it('indexes a published round and a claim as they are mined; 200 reads of /api/me by 20 members then make no node call', async () => {
    const t = await buildTestApp({ env });
    opened.push(t);
    const a = await makeMemberKeys();
    await joinAndConfirm(t.app, t.services.database.db, a);
    const others = await Promise.all(Array.from({ length: 19 }, () => cloneMemberKeys(a)));
    for (const member of others) await joinAndConfirm(t.app, t.services.database.db, member);
    const cookies = [
      await signedInCookie(t.app, a),
      ...(await Promise.all(others.map((m) => signedInCookie(t.app, m)))),
    ];

    const round = await publishRound(t);
    const receipt = await t.services.chain.provider.getTransactionReceipt(round.txHash);
    const state = await t.services.database.db
      .selectFrom('chain_follower_state')
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(state).toMatchObject({
      round_index: 1,
      round_root: round.root,
      round_block: receipt!.blockNumber,
      block_number: receipt!.blockNumber,
      last_error: null,
    });
    expect(await eventsOf(t)).toContainEqual(
      expect.objectContaining({
        kind: 'root_proposed',
        round_index: 1,
        amount: reme(200 * 20),
        block_number: receipt!.blockNumber,
      }),
    );

    const claimHash = await claimAll(t, a, cookies[0]!);
    const distributor = String(t.services.chain.distributor.target).toLowerCase();
    const claimEvents = (await eventsOf(t)).filter((e) => e.to_address === a.address.toLowerCase());
    expect(claimEvents).toEqual([
      expect.objectContaining({ kind: 'transfer', from_address: distributor, amount: reme(200) }),
      expect.objectContaining({ kind: 'claimed', from_address: null, amount: reme(200) }),
    ]);
    expect((await t.services.chain.provider.getTransactionReceipt(claimHash))!.blockNumber).toBe(
      claimEvents[0]!.block_number,
    );
    expect(await walletOf(t, a.address)).toEqual({ reme_balance: reme(200), claimed: reme(200) });
    expect(await walletOf(t, distributor)).toEqual({ reme_balance: reme(200 * 19), claimed: '0' });

    const calls = t.services.chain.node.calls.total;
    const answers: UserDetails[] = [];
    for (let burst = 0; burst < 10; burst++)
      answers.push(
        ...(await Promise.all(cookies.map((cookie) => get<UserDetails>(t, '/api/me', cookie)))),
      );
    expect(answers).toHaveLength(200);
    expect(t.services.chain.node.calls.total - calls).toBe(0);
    expect(answers[0]!.tokens).toMatchObject({
      claimed: reme(200),
      remeHeld: reme(200),
      forClaiming: '0',
      distributed: reme(200),
      asOf: { block: claimEvents[0]!.block_number, chainReachable: true },
    });
    expect(answers[1]!.tokens).toMatchObject({
      claimed: '0',
      remeHeld: '0',
      forClaiming: reme(200),
    });
    console.info(
      `[follower] node calls made by 200 GET /api/me from 20 members: ${t.services.chain.node.calls.total - calls}`,
    );
  });

  it('resumes from the last processed block after a restart, counting nothing twice', async () => {
    const database = await openTestDatabase();
    opened.push(database);
    const start = (dataDir: string) =>
      buildTestApp({ database, env: { ...env, DATA_DIR: dataDir } });
    const dataDir = mkdtempSync(path.join(tmpdir(), 'crw-follower-'));
    const first = await start(dataDir);
    const a = await makeMemberKeys();
    await joinAndConfirm(first.app, database.database.db, a);
    await publishRound(first);
    await claimAll(first, a, await signedInCookie(first.app, a));
    const before = {
      state: await database.database.db
        .selectFrom('chain_follower_state')
        .select(['block_number', 'block_hash', 'round_index'])
        .executeTakeFirstOrThrow(),
      events: await eventsOf(first),
    };
    await first.close();

    const second = await start(dataDir);
    opened.push(second);
    // One look at the head, which is the block it stopped at: nothing read again.
    expect(second.services.follower.calls.byMethod).toEqual({ eth_getBlockByNumber: 1 });
    expect(
      await database.database.db
        .selectFrom('chain_follower_state')
        .select(['block_number', 'block_hash', 'round_index'])
        .executeTakeFirstOrThrow(),
    ).toEqual(before.state);
    expect(await eventsOf(second)).toEqual(before.events);
    expect(await walletOf(second, a.address)).toEqual({
      reme_balance: reme(200),
      claimed: reme(200),
    });

    // A friend joins; the next round and claim add only the increase.
    const cookie = await signedInCookie(second.app, a);
    await joinAndConfirm(
      second.app,
      database.database.db,
      await cloneMemberKeys(a),
      (await get<UserDetails>(second, '/api/me', cookie)).referralCode!,
    );
    expect(await publishRound(second)).toMatchObject({ index: 2 });
    await claimAll(second, a, cookie);
    expect(await walletOf(second, a.address)).toEqual({
      reme_balance: reme(300),
      claimed: reme(300),
    });
    expect((await get<UserDetails>(second, '/api/me', cookie)).tokens).toMatchObject({
      claimed: reme(300),
      remeHeld: reme(300),
      forClaiming: '0',
    });
  });
});
