import type { Contract, ContractTransactionReceipt } from 'ethers';
import { getAddress, hexlify, randomBytes } from 'ethers';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Entitlement } from '@crw/core';
import { claimManyOutcome, type BatchClaim } from '../src/index';
import { deployed, eventsOf, expectRevert, publishRound, reme } from './fixture';

type Fixture = Awaited<ReturnType<typeof deployed>>;

let f: Fixture;
let relayer: Contract;
beforeEach(async () => {
  f = await deployed();
  relayer = f.distributor.connect(f.stranger) as Contract;
});

const balanceOf = (address: string): Promise<bigint> => f.token.getFunction('balanceOf')(address);
const claimedOf = (address: string): Promise<bigint> =>
  f.distributor.getFunction('claimed')(address);

/** Publishes round `index` and returns each entitlement as a batch claim with its proof. */
async function round(index: number, entitlements: Entitlement[]) {
  const published = await publishRound(f.distributor, index, entitlements);
  const claims: BatchClaim[] = entitlements.map(({ address, amount }, i) => ({
    account: address,
    cumulativeAmount: amount,
    proof: published.proofs[i]!,
  }));
  return { ...published, claims };
}

async function claimMany(index: number, claims: BatchClaim[]) {
  const paid = (await relayer.getFunction('claimMany').staticCall(index, claims)) as bigint[];
  const receipt = (await (
    await relayer.getFunction('claimMany')(index, claims)
  ).wait()) as ContractTransactionReceipt;
  expect(receipt.status).toBe(1);
  return {
    paid: [...paid],
    receipt,
    outcome: claimManyOutcome(await f.distributor.getAddress(), receipt.logs),
  };
}

describe('claimMany', () => {
  it('pays every valid claim of the batch once, to its account, and nothing on a second send', async () => {
    const entitlements = f.members.map((address, i) => ({ address, amount: reme(200 + 100 * i) }));
    const { claims, total } = await round(1, entitlements);
    const distributor = await f.distributor.getAddress();

    const first = await claimMany(1, claims);
    expect(first.paid).toEqual(entitlements.map((e) => e.amount));
    expect(eventsOf(first.receipt, f.distributor, 'Claimed')).toEqual(
      entitlements.map((e) => [e.address, e.amount]),
    );
    expect(eventsOf(first.receipt, f.token, 'Transfer')).toEqual(
      entitlements.map((e) => [distributor, e.address, e.amount]),
    );
    expect(eventsOf(first.receipt, f.distributor, 'ClaimSkipped')).toEqual([]);
    expect(first.outcome).toEqual({
      paid: entitlements.map((e) => ({ account: e.address, amount: e.amount })),
      skipped: [],
    });
    for (const { address, amount } of entitlements) {
      expect(await balanceOf(address)).toBe(amount);
      expect(await claimedOf(address)).toBe(amount);
    }
    expect(await balanceOf(distributor)).toBe(0n);
    expect(await balanceOf(f.stranger.address)).toBe(0n);
    expect(total).toBe(entitlements.reduce((sum, e) => sum + e.amount, 0n));

    const again = await claimMany(1, claims);
    expect(again.paid).toEqual(entitlements.map(() => 0n));
    expect(eventsOf(again.receipt, f.distributor, 'Claimed')).toEqual([]);
    expect(eventsOf(again.receipt, f.token, 'Transfer')).toEqual([]);
    expect(again.outcome.skipped).toEqual(
      entitlements.map((e) => ({ account: e.address, reason: 'NothingToClaim' })),
    );
    for (const { address, amount } of entitlements) expect(await balanceOf(address)).toBe(amount);
  });

  it('skips an already-claimed member, an invalid proof and a repeated account, pays the difference to one claimed lower, and goes on', async () => {
    const [a, b, c, d, e] = f.members as [string, string, string, string, string];
    const one = await round(1, [
      { address: a, amount: reme(200) },
      { address: b, amount: reme(300) },
    ]);
    // a and b claim round 1 themselves.
    for (const claim of one.claims) {
      await (
        await f.distributor.getFunction('claim')(
          claim.account,
          claim.cumulativeAmount,
          claim.proof,
          1,
        )
      ).wait();
    }

    const two = await round(2, [
      { address: a, amount: reme(200) }, // nothing new since round 1
      { address: b, amount: reme(375) }, // 75 more than claimed
      { address: c, amount: reme(400) },
      { address: d, amount: reme(500) },
      { address: e, amount: reme(600) },
    ]);
    const [ca, cb, cc, cd, ce] = two.claims as [
      BatchClaim,
      BatchClaim,
      BatchClaim,
      BatchClaim,
      BatchClaim,
    ];
    const tampered = { ...cd, proof: [`0x${'11'.repeat(32)}`, ...cd.proof.slice(1)] };
    const inflated = { ...ce, cumulativeAmount: ce.cumulativeAmount + 1n };
    const batch = [ca, cb, cc, tampered, cc, inflated, ce, ce];

    const { paid, receipt, outcome } = await claimMany(2, batch);
    expect(paid).toEqual([0n, reme(75), reme(400), 0n, 0n, 0n, reme(600), 0n]);
    expect(outcome.paid).toEqual([
      { account: b, amount: reme(75) },
      { account: c, amount: reme(400) },
      { account: e, amount: reme(600) },
    ]);
    expect(eventsOf(receipt, f.token, 'Transfer')).toEqual([
      [await f.distributor.getAddress(), b, reme(75)],
      [await f.distributor.getAddress(), c, reme(400)],
      [await f.distributor.getAddress(), e, reme(600)],
    ]);
    expect(eventsOf(receipt, f.distributor, 'ClaimSkipped')).toHaveLength(5);
    expect(outcome.skipped).toEqual(
      expect.arrayContaining([
        { account: d, reason: 'InvalidProof' },
        { account: e, reason: 'InvalidProof' },
        { account: a, reason: 'NothingToClaim' },
        { account: c, reason: 'NothingToClaim' },
        { account: e, reason: 'NothingToClaim' },
      ]),
    );

    const expected = { [a]: reme(200), [b]: reme(375), [c]: reme(400), [d]: 0n, [e]: reme(600) };
    for (const [address, amount] of Object.entries(expected)) {
      expect(await balanceOf(address)).toBe(amount);
      expect(await claimedOf(address)).toBe(amount);
    }
    expect(await balanceOf(await f.distributor.getAddress())).toBe(
      two.total - reme(200 + 375 + 400 + 600),
    );
    expect(await balanceOf(f.stranger.address)).toBe(0n);

    // d, skipped, can still claim with the right proof.
    await (await f.distributor.getFunction('claim')(d, cd.cumulativeAmount, cd.proof, 2)).wait();
    expect(await balanceOf(d)).toBe(reme(500));
  });

  it('accepts an empty batch and reverts a batch for any round but the current one', async () => {
    const one = await round(
      1,
      f.members.map((address) => ({ address, amount: reme(100) })),
    );
    expect((await claimMany(1, [])).paid).toEqual([]);
    await expectRevert(
      relayer.getFunction('claimMany')(2, one.claims),
      f.distributor,
      'WrongRound',
    );
    await expectRevert(
      relayer.getFunction('claimMany')(0, one.claims),
      f.distributor,
      'WrongRound',
    );
    await round(
      2,
      f.members.map((address) => ({ address, amount: reme(150) })),
    );
    await expectRevert(
      relayer.getFunction('claimMany')(1, one.claims),
      f.distributor,
      'WrongRound',
    );
    for (const address of f.members) expect(await balanceOf(address)).toBe(0n);
  });

  it('pays 100 first-time claims of a 1,000-member round for at most 40,000 gas each', async () => {
    const entitlements = Array.from({ length: 1_000 }, (_, i) => ({
      address: getAddress(hexlify(randomBytes(20))),
      amount: reme(200 + (i % 4) * 25),
    }));
    const { claims } = await round(1, entitlements);
    const batch = claims.filter((_, i) => i % 10 === 3);
    const { receipt, outcome } = await claimMany(1, batch);
    expect(outcome.paid).toHaveLength(100);
    expect(outcome.skipped).toEqual([]);
    const perClaim = Number(receipt.gasUsed) / batch.length;
    expect(perClaim).toBeLessThanOrEqual(40_000);
  });
});

describe('payClaims', () => {
  it('can be called only by the distributor', async () => {
    await expectRevert(
      f.token.getFunction('payClaims')([f.members[0]], [reme(1)]),
      f.token,
      'NotDistributor',
    );
  });
});
