import type { Contract} from 'ethers';
import { BrowserProvider, Wallet, parseEther } from 'ethers';
import { buildTree, proofAt, type Entitlement } from '@crw/core';
import { createDevChain, deployContracts, WELL_KNOWN_TEST_KEYS } from '../src/index';

export const SUPPLY = parseEther('1000000000');

/** A fresh chain with both contracts, the operator, a stranger and some member wallets. */
export async function deployed() {
  const provider = new BrowserProvider(await createDevChain(WELL_KNOWN_TEST_KEYS), undefined, { cacheTimeout: -1 });
  const operator = new Wallet(WELL_KNOWN_TEST_KEYS[0]!, provider);
  const stranger = new Wallet(WELL_KNOWN_TEST_KEYS[1]!, provider);
  const { token, distributor } = await deployContracts(operator, SUPPLY);
  const members = Array.from({ length: 5 }, () => Wallet.createRandom().address);
  return { provider, operator, stranger, token, distributor, members };
}

/** Builds a round, publishes it as the operator and returns each entitlement's proof. */
export async function publishRound(distributor: Contract, index: number, entitlements: Entitlement[]) {
  const tree = await buildTree(entitlements);
  const total = entitlements.reduce((sum, e) => sum + e.amount, 0n);
  await (await distributor.getFunction('publishRoot')(index, tree.root, total)).wait();
  return {
    root: tree.root,
    total,
    proofs: entitlements.map((_, i) => proofAt(tree.nodes, tree.treeIndex[i]!)),
    nodes: tree.nodes,
  };
}
