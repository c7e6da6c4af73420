import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { describe, expect, it } from 'vitest';
import {
  LEAF_ENCODING,
  buildTree,
  bytesToHex,
  leafHash,
  leafLayer,
  processProof,
  proofAt,
  sortedLeaves,
  verifyProof,
} from './merkle';

function randomAddress(seed: number): string {
  return `0x${(seed * 2654435761).toString(16).padStart(8, '0').repeat(5).slice(0, 40)}`;
}

const entitlements = Array.from({ length: 257 }, (_, i) => ({
  address: randomAddress(i + 1),
  amount: BigInt(i % 7) * 10n ** 18n + 200n * 10n ** 18n,
}));

describe('buildTree', () => {
  it('makes the same nodes, root and proofs as OpenZeppelin StandardMerkleTree', async () => {
    const ours = await buildTree(entitlements);
    const reference = StandardMerkleTree.of(
      entitlements.map((e) => [e.address, e.amount.toString()]),
      [...LEAF_ENCODING],
    );
    const dump = reference.dump();
    expect(ours.root).toBe(reference.root);
    expect(
      Array.from({ length: dump.tree.length }, (_, i) =>
        bytesToHex(ours.nodes.subarray(i * 32, i * 32 + 32)),
      ),
    ).toEqual(dump.tree);
    entitlements.forEach((_, i) => {
      expect(ours.treeIndex[i]).toBe(dump.values[i]!.treeIndex);
      expect(proofAt(ours.nodes, ours.treeIndex[i]!)).toEqual(reference.getProof(i));
    });
  });

  it('agrees with the library on 3,000 random addresses and amounts up to 2^256 - 1', async () => {
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647);
    const hex = (digits: number) =>
      Array.from({ length: digits }, () => (random() % 16).toString(16)).join('');
    const values = Array.from({ length: 3_000 }, (_, i) => ({
      address: `0x${hex(40)}`,
      amount: i === 0 ? (1n << 256n) - 1n : i === 1 ? 0n : BigInt(`0x${hex(1 + (random() % 40))}`),
    }));
    const ours = await buildTree(values);
    const reference = StandardMerkleTree.of(
      values.map((e) => [e.address, e.amount.toString()]),
      [...LEAF_ENCODING],
    );
    expect(ours.root).toBe(reference.root);
    const dump = reference.dump();
    values.forEach((_, i) => expect(ours.treeIndex[i]).toBe(dump.values[i]!.treeIndex));
  });

  it('sorts leaves by their whole hash, stably, also when many share their first bytes', () => {
    // 600 hashes over 3 first-four-byte prefixes, with exact duplicates among them.
    const count = 600;
    const leaves = new Uint8Array(count * 32);
    for (let i = 0; i < count; i++) {
      const at = i * 32;
      leaves.set([0xab, 0xcd, i % 3, 0x01], at);
      leaves[at + 4] = (i * 37) % 11;
      leaves[at + 31] = (i * 13) % 5;
    }
    const expected = Array.from({ length: count }, (_, i) => i).sort((a, b) => {
      for (let k = 0; k < 32; k++) {
        const diff = leaves[a * 32 + k]! - leaves[b * 32 + k]!;
        if (diff !== 0) return diff;
      }
      return 0;
    });
    expect(Array.from(sortedLeaves(leaves, count))).toEqual(expected);
  });

  it('hashes the inner nodes a slice at a time into the same tree', async () => {
    const whole = await buildTree(entitlements);
    const growing = await leafLayer(entitlements);
    expect(() => growing.root()).toThrow(/not hashed/);
    let slices = 1;
    while (!growing.hashNodes(7)) slices++;
    expect(slices).toBe(Math.ceil((entitlements.length - 1) / 7));
    expect(growing.root()).toBe(whole.root);
    expect(growing.nodes).toEqual(whole.nodes);
    expect(growing.treeIndex).toEqual(whole.treeIndex);
  });

  it('handles a single member (the proof is empty, the root is the leaf)', async () => {
    const tree = await buildTree([{ address: randomAddress(9), amount: 1n }]);
    expect(tree.root).toBe(bytesToHex(leafHash(randomAddress(9), 1n)));
    expect(proofAt(tree.nodes, 0)).toEqual([]);
  });

  it('refuses an empty round, a bad address and a negative amount', async () => {
    await expect(buildTree([])).rejects.toThrow(/at least one/);
    await expect(buildTree([{ address: '0x1234', amount: 1n }])).rejects.toThrow(/not an address/);
    expect(() => leafHash('0x1234', 1n)).toThrow(/not an address/);
    expect(() => leafHash(randomAddress(1), -1n)).toThrow(/out of range/);
  });
});

describe('verifyProof', async () => {
  const tree = await buildTree(entitlements);
  const e = entitlements[42]!;
  const proof = proofAt(tree.nodes, tree.treeIndex[42]!);

  it('accepts a member’s own proof and amount and agrees with the library', () => {
    expect(verifyProof(tree.root, e.address, e.amount, proof)).toBe(true);
    expect(
      StandardMerkleTree.verify(
        tree.root,
        [...LEAF_ENCODING],
        [e.address, e.amount.toString()],
        proof,
      ),
    ).toBe(true);
    expect(processProof(e.address, e.amount, proof)).toBe(tree.root);
  });

  it('rejects another amount, another address and a tampered proof', () => {
    expect(verifyProof(tree.root, e.address, e.amount + 1n, proof)).toBe(false);
    expect(verifyProof(tree.root, randomAddress(999), e.amount, proof)).toBe(false);
    const tampered = [...proof];
    tampered[0] = `0x${'00'.repeat(32)}`;
    expect(verifyProof(tree.root, e.address, e.amount, tampered)).toBe(false);
  });
});
