import { LEAF_ENCODING, verifyProof, type ClaimData, type UserDetails } from '@crw/core';
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { parseEther } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishRound } from '../src/domain/distribution/rounds';
import { sendClaim, rpc, distributorInterface, tokenInterface } from './helpers/chain-client';
import {
  cloneMemberKeys,
  joinAndConfirm,
  makeMemberKeys,
  signedInCookie,
  type MemberKeys,
} from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

const reme = (n: number) => parseEther(String(n));
let t: TestApp;
let operator: Record<string, string>;
let a: MemberKeys;
let aCookie: string;
let aCode: string;
let distributor: string;

async function asMember<T>(url: string, cookie = aCookie): Promise<T> {
  const res = await t.app.inject({ method: 'GET', url, headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
}

async function distribute() {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/operator/distributions',
    headers: operator,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { index: number; outcome: string; root: string; members: number };
}

beforeAll(async () => {
  t = await buildTestApp();
  operator = { authorization: `Bearer ${t.services.operatorKey}` };
  distributor = t.services.chain.distributor.target as string;
  a = await makeMemberKeys();
  await joinAndConfirm(t.app, t.services.database.db, a);
  aCookie = await signedInCookie(t.app, a);
  aCode = (await asMember<UserDetails>('/api/me')).referralCode!;
  await joinAndConfirm(t.app, t.services.database.db, await cloneMemberKeys(a), aCode);
}, 60_000);
afterAll(() => t?.close());

describe(`distribution rounds and claims (${testDbKind})`, () => {
  it('previews the round, publishes it once, and serves proofs the contract and the library accept', async () => {
    const preview = await t.app.inject({
      method: 'GET',
      url: '/api/operator/distributions/preview',
      headers: operator,
    });
    expect(preview.json()).toMatchObject({
      index: 1,
      members: 2,
      changed: 2,
      total: reme(500).toString(),
      openRound: null,
    });
    expect(preview.json().changes[0]).toEqual({
      address: a.address,
      previous: '0',
      next: reme(300).toString(),
    });

    expect(await distribute()).toMatchObject({ index: 1, outcome: 'published', members: 2 });
    expect(await distribute()).toMatchObject({ index: 1, outcome: 'unchanged' });
    expect(await t.services.chain.distributor.getFunction('currentIndex')()).toBe(1n);

    const claim = await asMember<ClaimData>('/api/claim');
    expect(claim).toMatchObject({ distributedTokens: reme(300).toString(), distributionIndex: 1 });
    const root = (await t.services.chain.distributor.getFunction('merkleRoot')()) as string;
    expect(verifyProof(root, a.address, reme(300), claim.proof)).toBe(true);

    const dump = await t.app.inject({ method: 'GET', url: '/api/distributions/1/tree.json' });
    const tree = StandardMerkleTree.load(dump.json());
    expect(tree.root).toBe(root);
    expect(tree.getProof([a.address, reme(300).toString()])).toEqual(claim.proof);
    expect(dump.json().leafEncoding).toEqual([...LEAF_ENCODING]);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/distributions/2/tree.json' })).statusCode,
    ).toBe(404);

    const me = await asMember<UserDetails>('/api/me');
    expect(me.tokens).toMatchObject({
      entitled: reme(300).toString(),
      distributed: reme(300).toString(),
      incoming: '0',
      claimed: '0',
      forClaiming: reme(300).toString(),
      claimSplit: { signup: reme(200).toString(), referral: reme(100).toString() },
      remeHeld: '0',
      remePrice: '0.10',
    });
    expect(me.tokens.asOf).toMatchObject({
      chainReachable: true,
      block: expect.any(Number) as number,
    });
    expect(me).not.toHaveProperty('tokens.ethBalance');
    expect(await asMember('/api/claim/fee-balance')).toEqual({ ethBalance: '0' });
  });

  it('refuses a tampered proof or amount on chain, then pays exactly the claimable amount once', async () => {
    const { proof } = await asMember<ClaimData>('/api/claim');
    const tampered = [...proof];
    tampered[0] = `0x${'ab'.repeat(32)}`;
    const bad = await sendClaim(t.app, a.privateKey, distributor, [
      a.address,
      reme(300),
      tampered,
      1,
    ]);
    expect(distributorInterface.parseError(bad.error!.data!)?.name).toBe('InvalidProof');
    const inflated = await sendClaim(t.app, a.privateKey, distributor, [
      a.address,
      reme(3000),
      proof,
      1,
    ]);
    expect(distributorInterface.parseError(inflated.error!.data!)?.name).toBe('InvalidProof');

    const fund = await t.app.inject({
      method: 'POST',
      url: '/api/operator/fund',
      headers: operator,
      payload: { address: a.address, eth: '0.05' },
    });
    expect(fund.json().balance).toBe(reme(0.05).toString());
    expect(await asMember('/api/claim/fee-balance')).toEqual({ ethBalance: reme(0.05).toString() });
    const done = await sendClaim(t.app, a.privateKey, distributor, [
      a.address,
      reme(300),
      proof,
      1,
    ]);
    expect(done.receipt?.status).toBe('0x1');

    const me = await asMember<UserDetails>('/api/me');
    expect(me.tokens).toMatchObject({
      remeHeld: reme(300).toString(),
      claimed: reme(300).toString(),
      forClaiming: '0',
    });
    const again = await sendClaim(t.app, a.privateKey, distributor, [
      a.address,
      reme(300),
      proof,
      1,
    ]);
    expect(tokenInterface.parseError(again.error!.data!)?.name).toBe('NothingToClaim');
  });

  it('after a new referral, the next round lets the member claim only the increase', async () => {
    await joinAndConfirm(t.app, t.services.database.db, await cloneMemberKeys(a), aCode);
    expect((await asMember<UserDetails>('/api/me')).tokens).toMatchObject({
      incoming: reme(100).toString(),
      forClaiming: '0',
    });
    expect(await distribute()).toMatchObject({ index: 2, outcome: 'published', members: 3 });
    const me = await asMember<UserDetails>('/api/me');
    expect(me.tokens).toMatchObject({
      forClaiming: reme(100).toString(),
      claimSplit: { signup: '0', referral: reme(100).toString() },
    });
    const claim = await asMember<ClaimData>('/api/claim');
    const done = await sendClaim(t.app, a.privateKey, distributor, [
      a.address,
      BigInt(claim.distributedTokens),
      claim.proof,
      claim.distributionIndex,
    ]);
    expect(done.receipt?.status).toBe('0x1');
    expect((await asMember<UserDetails>('/api/me')).tokens.remeHeld).toBe(reme(400).toString());
  });

  it('finishes a round interrupted after its transaction was signed or sent, and never publishes twice', async () => {
    const db = t.services.database.db;
    for (const stopAt of ['sent', 'broadcast'] as const) {
      await joinAndConfirm(t.app, db, await cloneMemberKeys(a), aCode);
      const interrupted = publishRound(db, t.services.chain, (step) => {
        if (step === stopAt) throw new Error(`interrupted after ${step}`);
      });
      await expect(interrupted).rejects.toThrow(`interrupted after ${stopAt}`);
      const before = Number(await t.services.chain.distributor.getFunction('currentIndex')());
      const rerun = await distribute();
      expect(rerun.outcome).toBe('resumed');
      expect(rerun.index).toBe(stopAt === 'sent' ? before + 1 : before);
      expect(await distribute()).toMatchObject({ index: rerun.index, outcome: 'unchanged' });
      const rounds = await db
        .selectFrom('distribution_rounds')
        .select(['round_index', 'status'])
        .orderBy('round_index')
        .execute();
      expect(rounds.every((r) => r.status === 'published')).toBe(true);
      expect(Number(await t.services.chain.distributor.getFunction('currentIndex')())).toBe(
        rounds.length,
      );
    }
  });

  it('/rpc forwards only the allow-list, refuses oversized batches and over-limit callers', async () => {
    expect((await rpc(t.app, 'eth_chainId')).result).toBe('0x7a69');
    for (const method of [
      'eth_accounts',
      'eth_sendTransaction',
      'hardhat_setBalance',
      'evm_mine',
      'debug_traceTransaction',
      'eth_sign',
    ]) {
      expect((await rpc(t.app, method)).error).toMatchObject({
        code: -32601,
        message: `Method not allowed: ${method}`,
      });
    }
    const batch = Array.from({ length: 21 }, (_, id) => ({
      jsonrpc: '2.0',
      id,
      method: 'eth_blockNumber',
      params: [],
    }));
    const oversized = await t.app.inject({ method: 'POST', url: '/rpc', payload: batch });
    expect(oversized.statusCode).toBe(400);
    const fine = await t.app.inject({ method: 'POST', url: '/rpc', payload: batch.slice(0, 20) });
    expect(fine.json()).toHaveLength(20);

    const limited = await buildTestApp({ env: { RPC_RATE_LIMIT_PER_MINUTE: '5' } });
    try {
      const statuses = [];
      for (let i = 0; i < 7; i++)
        statuses.push(
          (
            await limited.app.inject({
              method: 'POST',
              url: '/rpc',
              payload: { jsonrpc: '2.0', id: i, method: 'eth_chainId' },
            })
          ).statusCode,
        );
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    } finally {
      await limited.close();
    }
  });

  it('reports the chain in /api/health and the public chain settings in /api/config', async () => {
    const health = (await t.app.inject({ method: 'GET', url: '/api/health' })).json();
    expect(health.chain).toMatchObject({
      status: 'up',
      kind: 'embedded',
      chainId: 31337,
      distributorAddress: distributor,
    });
    expect(health.chain.blockNumber).toBeGreaterThan(3);
    expect(health.chain.follower).toMatchObject({
      leading: true,
      confirmations: 0,
      processedBlock: health.chain.blockNumber,
      blocksBehind: 0,
      lastError: null,
    });
    const config = (await t.app.inject({ method: 'GET', url: '/api/config' })).json();
    expect(config.chain).toMatchObject({
      chainId: 31337,
      distributorAddress: distributor,
      explorerUrl: null,
    });
    // The £ price of ETH for fees, and the embedded chain is a test network with no public faucet.
    expect(config.eth).toEqual({ priceGbp: '2000', testNetwork: true, faucetUrl: null });
    expect(JSON.stringify(config)).not.toMatch(/rpc_url|http:\/\/127|8545/i);
  });
});
