// A sponsored batch the chain loses (docs/security.md#sponsored-claims), on a Hardhat node process:
// a batch mined and confirmed deeper than CHAIN_CONFIRMATIONS is taken away by evm_revert (a
// reorganisation past the confirmations). The follower's rollback reaches the relayer: the claims
// go back to the queue, the relayer takes its nonce from the chain again, sends them, and they are
// paid; the next batch goes through as well.
import { deployContracts } from '@crw/contracts';
import { Contract, JsonRpcProvider, Wallet, parseEther } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import {
  askSponsoredClaim,
  latestSponsoredClaim,
  signedClaimRequest,
  type SignedInMember,
} from './helpers/sponsored-claim';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

const CONFIRMATIONS = 2;

let node: HardhatNode;
let provider: JsonRpcProvider;
let t: TestApp;
let token: Contract;
let relayer: string;
let base: MemberKeys;

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
      CHAIN_CONFIRMATIONS: String(CONFIRMATIONS),
      CHAIN_POLL_INTERVAL_MS: '200',
      SPONSOR_CLAIMS: 'true',
      RELAYER_PRIVATE_KEY: node.accounts[1]!,
      RELAYER_BATCH_WAIT_MS: '60000',
    },
  });
  base = await makeMemberKeys();
}, 90_000);
afterAll(async () => {
  await t?.close();
  provider?.destroy();
  await node?.stop();
});

const db = () => t.services.database.db;
const mine = async (blocks: number) => {
  for (let i = 0; i < blocks; i++) await node.request('evm_mine');
};
const balanceOf = async (m: SignedInMember) =>
  BigInt(await token.getFunction('balanceOf')(m.keys.address));
const statuses = (members: SignedInMember[]) =>
  Promise.all(members.map(async (m) => (await latestSponsoredClaim(t, m))?.status));

async function newMembers(count: number): Promise<SignedInMember[]> {
  const members = [];
  for (let i = 0; i < count; i++) {
    const keys = await cloneMemberKeys(base);
    await joinAndConfirm(t.app, db(), keys);
    members.push({ keys, cookie: await signedInCookie(t.app, keys) });
  }
  return members;
}

/**
 * The members' sponsored claims, queued at once so that they go in one batch: the relayer's own
 * pass (every 5 s in a running app) must not fall between two of them, which it could while each
 * request was still being signed (a test on a loaded machine saw the second claim in a batch of its
 * own). Signed first, then sent together.
 */
async function askTogether(members: SignedInMember[]): Promise<void> {
  const signed = await Promise.all(members.map((m) => signedClaimRequest(t, m)));
  const answers = await Promise.all(
    members.map((m, i) =>
      t.app.inject({
        method: 'POST',
        url: '/api/claim/sponsored',
        headers: { cookie: m.cookie, origin: ORIGIN },
        payload: signed[i],
      }),
    ),
  );
  for (const answer of answers) expect(answer.statusCode, answer.body).toBe(202);
}

/** Sends what is queued and waits out the confirmations: the batch is recorded as mined. */
async function sendAndConfirm(): Promise<void> {
  await t.services.relayer!.passNow();
  await mine(CONFIRMATIONS + 1);
  await t.services.relayer!.passNow();
  await t.services.follower.syncNow();
}

describe(`a sponsored batch the chain loses, on a Hardhat node process (${testDbKind})`, () => {
  it('puts its claims back in the queue, sends them again with the nonce the chain has free, pays them, and later batches go through', async () => {
    const members = await newMembers(3);
    const [a, b, later] = members as [SignedInMember, SignedInMember, SignedInMember];
    const published = await t.app.inject({
      method: 'POST',
      url: '/api/operator/distributions',
      headers: { authorization: `Bearer ${t.services.operatorKey}` },
    });
    expect(published.statusCode, published.body).toBe(200);
    await mine(CONFIRMATIONS);
    await t.services.follower.syncNow();
    const amount = BigInt(
      (
        await t.app.inject({ method: 'GET', url: '/api/claim', headers: { cookie: a.cookie } })
      ).json().distributedTokens as string,
    );
    const nonce = await provider.getTransactionCount(relayer, 'latest');

    const snapshot = await node.request<string>('evm_snapshot');
    await askTogether([a, b]);
    await sendAndConfirm();
    expect(await statuses([a, b])).toEqual(['confirmed', 'confirmed']);
    expect(await balanceOf(a)).toBe(amount);
    const head = await provider.getBlockNumber();

    // The chain loses the batch: back to before it, then a longer chain without it.
    expect(await node.request('evm_revert', [snapshot])).toBe(true);
    await mine(head - (await provider.getBlockNumber()) + CONFIRMATIONS + 2);
    expect(await balanceOf(a)).toBe(0n);
    expect(await provider.getTransactionCount(relayer, 'latest')).toBe(nonce);
    await t.services.follower.syncNow();
    expect(await statuses([a, b])).toEqual(['queued', 'queued']);

    // Sent again with the freed nonce, and paid.
    await sendAndConfirm();
    expect(await statuses([a, b])).toEqual(['confirmed', 'confirmed']);
    expect(await balanceOf(a)).toBe(amount);
    expect(await balanceOf(b)).toBe(amount);
    const mined = await db()
      .selectFrom('relayer_transactions')
      .select(['nonce', 'status'])
      .orderBy('nonce')
      .execute();
    expect(mined).toEqual([{ nonce, status: 'mined' }]);

    // The next batch goes through too.
    expect((await askSponsoredClaim(t, later)).statusCode).toBe(202);
    await sendAndConfirm();
    expect(await statuses([later])).toEqual(['confirmed']);
    expect(await balanceOf(later)).toBe(amount);
    expect(await provider.getTransactionCount(relayer, 'latest')).toBe(nonce + 2);
  }, 120_000);

  it('when the follower never indexed the lost batch, the relayer finds it by its nonce before sending the next one', async () => {
    const members = await newMembers(3);
    const [d, e, f] = members as [SignedInMember, SignedInMember, SignedInMember];
    const published = await t.app.inject({
      method: 'POST',
      url: '/api/operator/distributions',
      headers: { authorization: `Bearer ${t.services.operatorKey}` },
    });
    expect(published.statusCode, published.body).toBe(200);
    await mine(CONFIRMATIONS);
    await t.services.follower.syncNow();
    // The follower stops here (its process down, say): it will never see the batch or its loss.
    await t.services.follower.stop();
    const amount = BigInt(
      (
        await t.app.inject({ method: 'GET', url: '/api/claim', headers: { cookie: d.cookie } })
      ).json().distributedTokens as string,
    );
    const nonce = await provider.getTransactionCount(relayer, 'latest');

    const snapshot = await node.request<string>('evm_snapshot');
    await askTogether([d, e]);
    await sendAndConfirm();
    expect(await statuses([d, e])).toEqual(['confirmed', 'confirmed']);
    const head = await provider.getBlockNumber();
    expect(await node.request('evm_revert', [snapshot])).toBe(true);
    await mine(head - (await provider.getBlockNumber()) + CONFIRMATIONS + 2);

    expect((await askSponsoredClaim(t, f)).statusCode).toBe(202);
    await sendAndConfirm();
    await sendAndConfirm();
    expect(await statuses([d, e, f])).toEqual(['confirmed', 'confirmed', 'confirmed']);
    for (const m of [d, e, f]) expect(await balanceOf(m)).toBe(amount);
    expect(await provider.getTransactionCount(relayer, 'latest')).toBe(nonce + 2);
  }, 120_000);
});
