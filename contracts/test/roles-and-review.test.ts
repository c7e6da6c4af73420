// The distributor's separate keys and review window (docs/security.md#the-keys): a treasury that
// holds the supply and funds rounds by its allowance, a publisher that may only propose, a guardian
// that may cancel a root in review and pause claims.
import type { Contract, ContractTransactionReceipt } from 'ethers';
import { MaxUint256 } from 'ethers';
import { beforeEach, describe, expect, it } from 'vitest';
import { bytesToHex } from '@crw/core';
import { advance, deployed, eventsOf, expectRevert, publishRound, reme, SUPPLY } from './fixture';

const REVIEW = 24 * 3600;

type Fixture = Awaited<ReturnType<typeof deployed>>;
let f: Fixture;
let as: (who: keyof Pick<Fixture, 'operator' | 'stranger' | 'treasury' | 'guardian'>) => Contract;
let approve: (amount: bigint) => Promise<void>;
const balance = async (address: string) =>
  (await f.token.getFunction('balanceOf')(address)) as bigint;

beforeEach(async () => {
  f = await deployed({ reviewSeconds: REVIEW });
  as = (who) => f.distributor.connect(f[who]) as Contract;
  approve = async (amount) => {
    const token = f.token.connect(f.treasury) as Contract;
    await (await token.getFunction('approve')(await f.distributor.getAddress(), amount)).wait();
  };
});

const someRoot = (byte: number) => bytesToHex(new Uint8Array(32).fill(byte));

describe('the roles', () => {
  it('mints the supply to the treasury, not to the key that deployed', async () => {
    expect(await balance(f.treasury.address)).toBe(SUPPLY);
    expect(await balance(f.operator.address)).toBe(0n);
    expect(await f.distributor.getFunction('treasury')()).toBe(f.treasury.address);
    expect(await f.distributor.getFunction('reviewPeriod')()).toBe(BigInt(REVIEW));
  });

  it('lets only the publisher propose, only a guardian cancel or pause, only the treasury resume or grant', async () => {
    await approve(reme(1000));
    const refused = 'AccessControlUnauthorizedAccount';
    for (const who of ['stranger', 'treasury', 'guardian'] as const)
      await expectRevert(
        as(who).getFunction('proposeRoot')(1, someRoot(1), 0),
        f.distributor,
        refused,
      );
    await (await as('operator').getFunction('proposeRoot')(1, someRoot(1), reme(10))).wait();
    for (const who of ['stranger', 'operator', 'treasury'] as const) {
      await expectRevert(as(who).getFunction('cancelRoot')(1), f.distributor, refused);
      await expectRevert(as(who).getFunction('pause')(), f.distributor, refused);
    }
    for (const who of ['stranger', 'operator', 'guardian'] as const) {
      await expectRevert(as(who).getFunction('resume')(), f.distributor, refused);
      const role = await f.distributor.getFunction('PUBLISHER_ROLE')();
      await expectRevert(
        as(who).getFunction('grantRole')(role, f.stranger.address),
        f.distributor,
        refused,
      );
    }
    // The treasury replaces a stolen publisher key: the old one can propose no more.
    const role = await f.distributor.getFunction('PUBLISHER_ROLE')();
    await (await as('treasury').getFunction('revokeRole')(role, f.operator.address)).wait();
    await (await as('treasury').getFunction('grantRole')(role, f.stranger.address)).wait();
    await (await as('guardian').getFunction('cancelRoot')(1)).wait();
    await expectRevert(
      as('operator').getFunction('proposeRoot')(2, someRoot(2), 0),
      f.distributor,
      refused,
    );
    await (await as('stranger').getFunction('proposeRoot')(2, someRoot(2), 0)).wait();
  });
});

describe('funding', () => {
  it('draws only what the treasury approved: nothing without an approval, no more than it', async () => {
    await expectRevert(
      as('operator').getFunction('proposeRoot')(1, someRoot(1), reme(500)),
      f.token,
      'ERC20InsufficientAllowance',
    );
    await approve(reme(500));
    await expectRevert(
      as('operator').getFunction('proposeRoot')(1, someRoot(1), reme(501)),
      f.token,
      'ERC20InsufficientAllowance',
    );
    await (await as('operator').getFunction('proposeRoot')(1, someRoot(1), reme(500))).wait();
    const distributor = await f.distributor.getAddress();
    expect(await balance(distributor)).toBe(reme(500));
    expect(await balance(f.treasury.address)).toBe(SUPPLY - reme(500));
    // The next round draws only what it adds, and the allowance is spent.
    await advance(f.provider, REVIEW);
    await expectRevert(
      as('operator').getFunction('proposeRoot')(2, someRoot(2), reme(501)),
      f.token,
      'ERC20InsufficientAllowance',
    );
    await approve(reme(100));
    await (await as('operator').getFunction('proposeRoot')(2, someRoot(2), reme(600))).wait();
    expect(await balance(distributor)).toBe(reme(600));
    expect(await f.distributor.getFunction('roundOf')(2)).toEqual([
      someRoot(2),
      reme(600),
      reme(100),
      expect.any(BigInt),
      false,
    ]);
  });
});

describe('the review window', () => {
  async function roundOne() {
    await approve(MaxUint256);
    const entitlements = f.members.map((address, i) => ({ address, amount: reme(100 + 10 * i) }));
    return { entitlements, ...(await publishRound(f.distributor, 1, entitlements)) };
  }

  it('refuses claims against a proposed root until the window is over, then pays without a transaction to activate it', async () => {
    const { entitlements, proofs } = await roundOne();
    const { address, amount } = entitlements[0]!;
    const [, , , activeAt] = (await f.distributor.getFunction('roundOf')(1)) as bigint[];
    await expectRevert(
      f.distributor.getFunction('claim')(address, amount, proofs[0], 1),
      f.distributor,
      'InReview',
    );
    await expectRevert(
      f.distributor.getFunction('claimMany')(1, [[address, amount, proofs[0]]]),
      f.distributor,
      'InReview',
    );
    expect(await f.distributor.getFunction('currentIndex')()).toBe(0n);
    expect(await f.distributor.getFunction('latestIndex')()).toBe(1n);
    expect(await f.distributor.getFunction('status')()).toEqual([
      0n,
      `0x${'00'.repeat(32)}`,
      1n,
      activeAt,
      false,
      false,
    ]);
    // One second before the window ends it still refuses.
    const now = (await f.provider.getBlock('latest'))!.timestamp;
    await advance(f.provider, Number(activeAt) - now - 2);
    await expectRevert(
      f.distributor.getFunction('claim')(address, amount, proofs[0], 1),
      f.distributor,
      'InReview',
    );
    await advance(f.provider, 2);
    expect(await f.distributor.getFunction('currentIndex')()).toBe(1n);
    expect((await f.distributor.getFunction('status')()).slice(0, 3)).toEqual([
      1n,
      await f.distributor.getFunction('merkleRoot')(),
      1n,
    ]);
    await (await f.distributor.getFunction('claim')(address, amount, proofs[0], 1)).wait();
    expect(await balance(address)).toBe(amount);
  });

  it('keeps the active round claimable while the next is in review, and takes one round at a time', async () => {
    const { entitlements, proofs } = await roundOne();
    await advance(f.provider, REVIEW);
    const raised = entitlements.map((e) => ({ ...e, amount: e.amount + reme(5) }));
    const two = await publishRound(f.distributor, 2, raised);
    await expectRevert(
      as('operator').getFunction('proposeRoot')(3, someRoot(3), 0),
      f.distributor,
      'RoundPending',
    );
    // Round 1 still pays; round 2 is in review.
    const { address, amount } = entitlements[1]!;
    await (await f.distributor.getFunction('claim')(address, amount, proofs[1], 1)).wait();
    await expectRevert(
      f.distributor.getFunction('claim')(address, raised[1]!.amount, two.proofs[1], 2),
      f.distributor,
      'InReview',
    );
    await advance(f.provider, REVIEW);
    // Once round 2 is active, round 1's proofs are refused: only the active root pays.
    await expectRevert(
      f.distributor.getFunction('claim')(
        entitlements[2]!.address,
        entitlements[2]!.amount,
        proofs[2],
        1,
      ),
      f.distributor,
      'WrongRound',
    );
    const receipt = (await (
      await f.distributor.getFunction('claim')(address, raised[1]!.amount, two.proofs[1], 2)
    ).wait()) as ContractTransactionReceipt;
    expect(eventsOf(receipt, f.distributor, 'Claimed')).toEqual([[address, reme(5)]]);
    await (await as('operator').getFunction('proposeRoot')(3, someRoot(3), 0)).wait();
  });

  it('lets a guardian cancel a root in review: it never pays, its funding goes back to the treasury, the next round takes the next number', async () => {
    const { entitlements } = await roundOne();
    await advance(f.provider, REVIEW);
    const before = await balance(f.treasury.address);
    // A root that pays a stranger 1,000,000 REME, proposed with the publisher's key.
    const rogue = [...entitlements, { address: f.stranger.address, amount: reme(1_000_000) }];
    const stolen = await publishRound(f.distributor, 2, rogue);
    expect(await balance(f.treasury.address)).toBe(before - reme(1_000_000));
    const receipt = (await (
      await as('guardian').getFunction('cancelRoot')(2)
    ).wait()) as ContractTransactionReceipt;
    expect(eventsOf(receipt, f.distributor, 'RootCancelled')).toEqual([
      [2n, f.guardian.address, reme(1_000_000)],
    ]);
    expect(await balance(f.treasury.address)).toBe(before);
    await advance(f.provider, REVIEW * 2);
    await expectRevert(
      f.distributor.getFunction('claim')(
        f.stranger.address,
        reme(1_000_000),
        stolen.proofs.at(-1),
        2,
      ),
      f.distributor,
      'WrongRound',
    );
    expect(await f.distributor.getFunction('currentIndex')()).toBe(1n);
    expect((await f.distributor.getFunction('roundOf')(2))[4]).toBe(true);
    const [active, , latest, , cancelled] = (await f.distributor.getFunction('status')()) as [
      bigint,
      string,
      bigint,
      bigint,
      boolean,
    ];
    expect([active, latest, cancelled]).toEqual([1n, 2n, true]);
    // Nothing left to cancel; the next round is 3.
    await expectRevert(as('guardian').getFunction('cancelRoot')(2), f.distributor, 'NotInReview');
    await expectRevert(
      as('operator').getFunction('proposeRoot')(2, someRoot(2), 0),
      f.distributor,
      'RoundOutOfOrder',
    );
    await (await as('operator').getFunction('proposeRoot')(3, someRoot(3), 0)).wait();
  });

  it('refuses to cancel an active round, an older one or one never proposed', async () => {
    await roundOne();
    await expectRevert(as('guardian').getFunction('cancelRoot')(2), f.distributor, 'NotInReview');
    await expectRevert(as('guardian').getFunction('cancelRoot')(0), f.distributor, 'NotInReview');
    await advance(f.provider, REVIEW);
    await expectRevert(as('guardian').getFunction('cancelRoot')(1), f.distributor, 'NotInReview');
  });
});

describe('pause', () => {
  it('stops every claim until the treasury resumes them', async () => {
    await approve(MaxUint256);
    const entitlements = f.members.map((address) => ({ address, amount: reme(10) }));
    const { proofs } = await publishRound(f.distributor, 1, entitlements);
    await advance(f.provider, REVIEW);
    const paused = (await (
      await as('guardian').getFunction('pause')()
    ).wait()) as ContractTransactionReceipt;
    expect(eventsOf(paused, f.distributor, 'ClaimsPaused')).toEqual([[f.guardian.address]]);
    expect(await f.distributor.getFunction('paused')()).toBe(true);
    expect((await f.distributor.getFunction('status')())[5]).toBe(true);
    const { address, amount } = entitlements[0]!;
    await expectRevert(
      f.distributor.getFunction('claim')(address, amount, proofs[0], 1),
      f.distributor,
      'ClaimsArePaused',
    );
    await expectRevert(
      f.distributor.getFunction('claimMany')(1, [[address, amount, proofs[0]]]),
      f.distributor,
      'ClaimsArePaused',
    );
    await (await as('treasury').getFunction('resume')()).wait();
    await (await f.distributor.getFunction('claim')(address, amount, proofs[0], 1)).wait();
    expect(await balance(address)).toBe(amount);
  });
});
