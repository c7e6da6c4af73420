import type { Contract, ContractTransactionReceipt } from 'ethers';
import { BrowserProvider, Wallet, parseEther } from 'ethers';
import { expect } from 'vitest';
import { buildTree, proofAt, type Entitlement } from '@crw/core';
import { createDevChain, deployContracts, WELL_KNOWN_TEST_KEYS } from '../src/index';

export const SUPPLY = parseEther('1000000000');
export const reme = (n: number) => parseEther(String(n));

/** A fresh chain with both contracts, the operator, a stranger and some member wallets. With
 * `separate`, the operator is only the publisher: a treasury and a guardian have keys of their own,
 * and a root waits `reviewSeconds` (the treasury approves nothing yet). */
export async function deployed(separate?: { reviewSeconds: number }) {
  const provider = new BrowserProvider(await createDevChain(WELL_KNOWN_TEST_KEYS), undefined, {
    cacheTimeout: -1,
  });
  const [operator, stranger, treasury, guardian] = WELL_KNOWN_TEST_KEYS.map(
    (key) => new Wallet(key, provider),
  ) as [Wallet, Wallet, Wallet, Wallet];
  const { token, distributor } = await deployContracts(
    operator,
    SUPPLY,
    separate && {
      treasury: treasury.address,
      guardians: [guardian.address],
      reviewSeconds: separate.reviewSeconds,
    },
  );
  const members = Array.from({ length: 5 }, () => Wallet.createRandom().address);
  return { provider, operator, stranger, treasury, guardian, token, distributor, members };
}

/** Moves the chain's clock on by `seconds` and mines a block at the new time. */
export async function advance(provider: BrowserProvider, seconds: number) {
  await provider.send('evm_increaseTime', [seconds]);
  await provider.send('evm_mine', []);
}

/** Builds a round, proposes it as the operator (the publisher) and returns each entitlement's proof. */
export async function publishRound(
  distributor: Contract,
  index: number,
  entitlements: Entitlement[],
) {
  const tree = await buildTree(entitlements);
  const total = entitlements.reduce((sum, e) => sum + e.amount, 0n);
  await (await distributor.getFunction('proposeRoot')(index, tree.root, total)).wait();
  return {
    root: tree.root,
    total,
    proofs: entitlements.map((_, i) => proofAt(tree.nodes, tree.treeIndex[i]!)),
    nodes: tree.nodes,
  };
}

/** Awaits `promise` and expects it to fail with `contract`'s custom error `errorName`. */
export async function expectRevert(
  promise: Promise<unknown>,
  contract: Contract,
  errorName: string,
) {
  const error = await promise.then(
    () => undefined,
    (e: { data?: string; info?: { error?: { data?: string } } }) => e,
  );
  expect(error, `expected ${errorName}`).toBeDefined();
  const data = error?.data ?? error?.info?.error?.data;
  expect(contract.interface.parseError(data!)?.name).toBe(errorName);
}

/** The arguments of each `name` event of `contract` in `receipt`, in log order. */
export function eventsOf(
  receipt: ContractTransactionReceipt | null,
  contract: Contract,
  name: string,
) {
  return (receipt?.logs ?? [])
    .map((log) => contract.interface.parseLog(log))
    .filter((parsed) => parsed?.name === name)
    .map((parsed) => parsed!.args.toArray());
}
