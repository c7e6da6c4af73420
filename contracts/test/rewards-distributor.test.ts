import type { Contract, ContractTransactionReceipt } from 'ethers';
import { beforeEach, describe, expect, it } from 'vitest';
import { bytesToHex } from '@crw/core';
import { deployed, eventsOf, expectRevert, publishRound, reme, SUPPLY } from './fixture';

type Fixture = Awaited<ReturnType<typeof deployed>>;

let f: Fixture;
beforeEach(async () => {
  f = await deployed();
});

describe('proposeRoot (one key, no review window: the embedded install)', () => {
  it('makes the next round claimable at once, funds the distributor to the round total and emits RootProposed', async () => {
    const [a, b] = f.members;
    const round = await publishRound(f.distributor, 1, [
      { address: a!, amount: reme(200) },
      { address: b!, amount: reme(300) },
    ]);
    expect(await f.distributor.getFunction('merkleRoot')()).toBe(round.root);
    expect(await f.distributor.getFunction('currentIndex')()).toBe(1n);
    expect(await f.token.getFunction('balanceOf')(await f.distributor.getAddress())).toBe(
      reme(500),
    );

    const next = await publishRound(f.distributor, 2, [
      { address: a!, amount: reme(250) },
      { address: b!, amount: reme(300) },
    ]);
    const receipt = await f.provider.getTransactionReceipt(
      (await f.distributor.queryFilter(f.distributor.filters.RootProposed!(2)))[0]!.transactionHash,
    );
    const { timestamp } = (await f.provider.getBlock(receipt!.blockNumber))!;
    expect(eventsOf(receipt as ContractTransactionReceipt, f.distributor, 'RootProposed')).toEqual([
      [2n, next.root, reme(550), reme(50), BigInt(timestamp)],
    ]);
    expect(await f.distributor.getFunction('currentIndex')()).toBe(2n);
    expect(await f.token.getFunction('balanceOf')(await f.distributor.getAddress())).toBe(
      reme(550),
    );
  });

  it('refuses a stranger, a repeated or skipped round and an empty root', async () => {
    const root = bytesToHex(new Uint8Array(32).fill(1));
    const asStranger = f.distributor.connect(f.stranger) as Contract;
    await expectRevert(
      asStranger.getFunction('proposeRoot')(1, root, 0),
      f.distributor,
      'AccessControlUnauthorizedAccount',
    );
    await expectRevert(
      f.distributor.getFunction('proposeRoot')(2, root, 0),
      f.distributor,
      'RoundOutOfOrder',
    );
    await (await f.distributor.getFunction('proposeRoot')(1, root, 0)).wait();
    await expectRevert(
      f.distributor.getFunction('proposeRoot')(1, root, 0),
      f.distributor,
      'RoundOutOfOrder',
    );
    await expectRevert(
      f.distributor.getFunction('proposeRoot')(2, `0x${'00'.repeat(32)}`, 0),
      f.distributor,
      'EmptyRoot',
    );
    expect(await f.distributor.getFunction('currentIndex')()).toBe(1n);
  });
});

describe('claim', () => {
  async function roundOne() {
    const entitlements = f.members.map((address, i) => ({ address, amount: reme(200 + 100 * i) }));
    return { entitlements, ...(await publishRound(f.distributor, 1, entitlements)) };
  }

  it('pays the cumulative amount to the account and emits Claimed and Transfer', async () => {
    const { entitlements, proofs } = await roundOne();
    const { address, amount } = entitlements[2]!;
    const tx = await f.distributor.getFunction('claim')(address, amount, proofs[2], 1);
    const receipt = (await tx.wait()) as ContractTransactionReceipt;
    expect(await f.token.getFunction('balanceOf')(address)).toBe(amount);
    expect(await f.distributor.getFunction('claimed')(address)).toBe(amount);
    expect(eventsOf(receipt, f.distributor, 'Claimed')).toEqual([[address, amount]]);
    expect(eventsOf(receipt, f.token, 'Transfer')).toEqual([
      [await f.distributor.getAddress(), address, amount],
    ]);
  });

  it('pays only the increase on a repeat claim after a new round, and nothing twice', async () => {
    const { entitlements, proofs } = await roundOne();
    const { address, amount } = entitlements[0]!;
    await (await f.distributor.getFunction('claim')(address, amount, proofs[0], 1)).wait();
    await expectRevert(
      f.distributor.getFunction('claim')(address, amount, proofs[0], 1),
      f.token,
      'NothingToClaim',
    );

    const raised = entitlements.map((e, i) => ({
      ...e,
      amount: i === 0 ? e.amount + reme(75) : e.amount,
    }));
    const two = await publishRound(f.distributor, 2, raised);
    const receipt = (await (
      await f.distributor.getFunction('claim')(address, raised[0]!.amount, two.proofs[0], 2)
    ).wait()) as ContractTransactionReceipt;
    expect(eventsOf(receipt, f.distributor, 'Claimed')).toEqual([[address, reme(75)]]);
    expect(await f.token.getFunction('balanceOf')(address)).toBe(raised[0]!.amount);
  });

  it('lets anyone send the claim on behalf of an account and pays that account', async () => {
    const { entitlements, proofs } = await roundOne();
    const { address, amount } = entitlements[1]!;
    const asStranger = f.distributor.connect(f.stranger) as Contract;
    await (await asStranger.getFunction('claim')(address, amount, proofs[1], 1)).wait();
    expect(await f.token.getFunction('balanceOf')(address)).toBe(amount);
    expect(await f.token.getFunction('balanceOf')(f.stranger.address)).toBe(0n);
  });

  it('reverts a wrong proof, a wrong amount, another account, a wrong index and an internal node as a leaf', async () => {
    const { entitlements, proofs, nodes } = await roundOne();
    const { address, amount } = entitlements[3]!;
    const claim = f.distributor.getFunction('claim');
    const tampered = [...proofs[3]!];
    tampered[0] = `0x${'11'.repeat(32)}`;
    await expectRevert(claim(address, amount, tampered, 1), f.distributor, 'InvalidProof');
    await expectRevert(claim(address, amount + 1n, proofs[3], 1), f.distributor, 'InvalidProof');
    await expectRevert(
      claim(entitlements[4]!.address, amount, proofs[3], 1),
      f.distributor,
      'InvalidProof',
    );
    await expectRevert(claim(address, amount, proofs[3], 2), f.distributor, 'WrongRound');
    await expectRevert(claim(address, amount, proofs[3], 0), f.distributor, 'WrongRound');

    // Node 1 is internal: its children are nodes 3 and 4. Presenting node 1's two children as
    // an "(address, amount)" leaf cannot work because leaves are hashed twice.
    const child = (i: number) => nodes.subarray(i * 32, i * 32 + 32);
    const sibling = bytesToHex(nodes.subarray(2 * 32, 3 * 32));
    const asAddress = `0x${bytesToHex(child(3)).slice(2 + 24)}`;
    const asAmount = BigInt(bytesToHex(child(4)));
    await expectRevert(claim(asAddress, asAmount, [sibling], 1), f.distributor, 'InvalidProof');
    expect(await f.token.getFunction('balanceOf')(address)).toBe(0n);
  });

  it('keeps the distributor balance equal to what was funded minus what was claimed', async () => {
    const { entitlements, proofs, total } = await roundOne();
    let claimed = 0n;
    for (const i of [0, 2, 4]) {
      const { address, amount } = entitlements[i]!;
      await (await f.distributor.getFunction('claim')(address, amount, proofs[i], 1)).wait();
      claimed += amount;
      expect(await f.token.getFunction('balanceOf')(await f.distributor.getAddress())).toBe(
        total - claimed,
      );
    }
    expect(await f.token.getFunction('totalSupply')()).toBe(SUPPLY);
  });
});

describe('payClaim', () => {
  it('can be called only by the distributor', async () => {
    await expectRevert(
      f.token.getFunction('payClaim')(f.members[0], reme(1)),
      f.token,
      'NotDistributor',
    );
  });
});
