// A batch the distributor cannot pay (docs/security.md#sponsored-claims), on a Hardhat node process:
// the distributor holds less REME than the queued claims pay together. The relayer finds the claims
// it cannot pay (each one's estimate alone, then the longest run of the others it pays together),
// fails those with a reason the member reads, sends the rest, and does not estimate the failing
// batch again; a member whose claim failed can delete their account.
import { deployContracts } from '@crw/contracts';
import {
  AbiCoder,
  Contract,
  JsonRpcProvider,
  Wallet,
  keccak256,
  parseEther,
  toBeHex,
} from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNPAYABLE_REASONS } from '../src/domain/sponsorship/unpayable';
import { tokenInterface } from './helpers/chain-client';
import { startHardhatNode, type HardhatNode } from './helpers/hardhat-node';
import { cloneMemberKeys, joinAndConfirm, makeMemberKeys, signedInCookie } from './helpers/members';
import {
  askSponsoredClaim,
  deleteAccount,
  latestSponsoredClaim,
  type SignedInMember,
} from './helpers/sponsored-claim';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

let node: HardhatNode;
let provider: JsonRpcProvider;
let t: TestApp;
let token: Contract;
let distributor: string;

beforeAll(async () => {
  node = await startHardhatNode();
  provider = new JsonRpcProvider(node.url, 31337, { staticNetwork: true, cacheTimeout: -1 });
  const operator = new Wallet(node.accounts[0]!, provider);
  const startBlock = (await provider.getBlockNumber()) + 1;
  const deployed = await deployContracts(operator, parseEther('1000000'));
  token = new Contract(await deployed.token.getAddress(), tokenInterface, provider);
  distributor = await deployed.distributor.getAddress();
  t = await buildTestApp({
    env: {
      CHAIN_RPC_URL: node.url,
      TOKEN_ADDRESS: await deployed.token.getAddress(),
      DISTRIBUTOR_ADDRESS: distributor,
      OPERATOR_PRIVATE_KEY: node.accounts[0]!,
      CHAIN_START_BLOCK: String(startBlock),
      CHAIN_CONFIRMATIONS: '0',
      CHAIN_POLL_INTERVAL_MS: '200',
      SPONSOR_CLAIMS: 'true',
      RELAYER_PRIVATE_KEY: node.accounts[1]!,
      // The members' requests, sent together, make one batch; the test runs the passes itself.
      RELAYER_BATCH_WAIT_MS: '60000',
    },
  });
}, 90_000);
afterAll(async () => {
  await t?.close();
  provider?.destroy();
  await node?.stop();
});

/** Sets the distributor's REME balance on the node (the token keeps each account's balance and
 * claimed amount in one slot of a mapping; the slot is found by reading the balance back). */
async function setDistributorBalance(balance: bigint): Promise<void> {
  const held = BigInt(await token.getFunction('balanceOf')(distributor));
  const coder = AbiCoder.defaultAbiCoder();
  for (let slot = 0; slot < 16; slot++) {
    const key = keccak256(coder.encode(['address', 'uint256'], [distributor, slot]));
    const word = BigInt(
      await node.request<string>('eth_getStorageAt', [await token.getAddress(), key, 'latest']),
    );
    if (word === 0n || (word & ((1n << 128n) - 1n)) !== held) continue;
    const value = ((word >> 128n) << 128n) | balance;
    await node.request('hardhat_setStorageAt', [await token.getAddress(), key, toBeHex(value, 32)]);
    expect(BigInt(await token.getFunction('balanceOf')(distributor))).toBe(balance);
    return;
  }
  throw new Error('the token slot of the distributor was not found');
}

const estimates = () => t.services.chain.node.calls.byMethod.eth_estimateGas ?? 0;

describe(`a batch the distributor cannot pay, on a Hardhat node process (${testDbKind})`, () => {
  it('pays the claims it can, fails the others with a reason, does not estimate them again, and lets those members delete their account', async () => {
    const base = await makeMemberKeys();
    const members: SignedInMember[] = [];
    for (let i = 0; i < 3; i++) {
      const keys = await cloneMemberKeys(base);
      await joinAndConfirm(t.app, t.services.database.db, keys);
      members.push({ keys, cookie: await signedInCookie(t.app, keys) });
    }
    const published = await t.app.inject({
      method: 'POST',
      url: '/api/operator/distributions',
      headers: { authorization: `Bearer ${t.services.operatorKey}` },
    });
    expect(published.statusCode, published.body).toBe(200);
    await t.services.follower.syncNow();
    const amount = BigInt(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/claim',
          headers: { cookie: members[0]!.cookie },
        })
      ).json().distributedTokens as string,
    );
    // Enough for one claim alone (or two alone), not for two together.
    await setDistributorBalance((amount * 3n) / 2n);

    const asked = await Promise.all(members.map((m) => askSponsoredClaim(t, m)));
    for (const res of asked) expect(res.statusCode, res.body).toBe(202);
    for (let i = 0; i < 3; i++) {
      await t.services.relayer!.passNow();
      await t.services.follower.syncNow();
    }

    const latest = await Promise.all(members.map((m) => latestSponsoredClaim(t, m)));
    const paid = members.filter((_, i) => latest[i]?.status === 'confirmed');
    const failed = members.filter((_, i) => latest[i]?.status === 'failed');
    expect(latest.map((l) => l?.status).sort()).toEqual(['confirmed', 'failed', 'failed']);
    expect(BigInt(await token.getFunction('balanceOf')(paid[0]!.keys.address))).toBe(amount);
    for (const m of failed) {
      expect(await latestSponsoredClaim(t, m)).toMatchObject({
        status: 'failed',
        reason: UNPAYABLE_REASONS.underfunded,
      });
      expect(BigInt(await token.getFunction('balanceOf')(m.keys.address))).toBe(0n);
    }

    // The failing claims are not estimated again, pass after pass.
    const before = estimates();
    for (let i = 0; i < 3; i++) await t.services.relayer!.passNow();
    expect(estimates()).toBe(before);

    // Nothing the relayer holds for them is left: they may leave.
    expect((await deleteAccount(t, failed[0]!)).statusCode).toBe(200);
    expect(t.logs).toContainEqual(
      expect.objectContaining({
        level: 50,
        msg: expect.stringContaining('relayer: the distributor cannot pay these claims'),
      }),
    );
  }, 120_000);
});
