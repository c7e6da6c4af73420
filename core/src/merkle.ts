// The distribution tree: OpenZeppelin StandardMerkleTree over (address, uint256), same leaves,
// layout and proofs as the library (its tests hold us to it), built on flat byte arrays and hashed
// by hash-wasm's keccak (about 15 times noble's here) so a round of a million members takes
// seconds instead of minutes. Single proofs are checked with noble's synchronous keccak.
import { keccak_256 } from '@noble/hashes/sha3';
import { createKeccak } from 'hash-wasm';

export const LEAF_ENCODING = ['address', 'uint256'] as const;

export interface Entitlement {
  /** 0x-prefixed 20-byte address (any case). */
  address: string;
  /** Cumulative amount in base units. */
  amount: bigint;
}

export interface DistributionTree {
  /** Every node, 32 bytes each, in the library's array layout (root first). */
  nodes: Uint8Array;
  /** Tree index of the leaf of entitlements[i]. */
  treeIndex: Uint32Array;
  root: string;
}

const NODE = 32;

const HEX_PAIRS = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

function nibble(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  throw new Error('not a hex digit');
}

/** Writes 0x-prefixed (or bare) hex into `into` at `offset`. */
function hexToBytes(hex: string, into: Uint8Array, offset: number): void {
  const start = hex.startsWith('0x') ? 2 : 0;
  for (let i = start, at = offset; i < hex.length; i += 2, at++) {
    into[at] = (nibble(hex.charCodeAt(i)) << 4) | nibble(hex.charCodeAt(i + 1));
  }
}

export function bytesToHex(bytes: Uint8Array): string {
  let hex = '0x';
  for (const byte of bytes) hex += HEX_PAIRS[byte];
  return hex;
}

type Keccak = (data: Uint8Array) => Uint8Array;

let wasmKeccak: Promise<Keccak> | undefined;
/** The bulk hasher, instantiated once (WebAssembly compiles asynchronously). */
function bulkKeccak(): Promise<Keccak> {
  wasmKeccak ??= createKeccak(256).then((hasher) => (data: Uint8Array) => {
    hasher.init();
    hasher.update(data);
    return hasher.digest('binary');
  });
  return wasmKeccak;
}

const UINT256_LIMIT = 1n << 256n;

/** abi.encode(address, uint256) into the 64 bytes of `into` (checked: a 0x-prefixed 20-byte
 * address, an amount that fits 256 bits). */
function encodeLeaf(address: string, amount: bigint, into: Uint8Array): void {
  if (address.length !== 42 || !address.startsWith('0x'))
    throw new Error(`not an address: ${address}`);
  if (amount < 0n || amount >= UINT256_LIMIT) throw new Error(`amount out of range: ${amount}`);
  into.fill(0);
  try {
    hexToBytes(address, into, 12);
  } catch {
    throw new Error(`not an address: ${address}`);
  }
  const hex = amount.toString(16);
  hexToBytes(hex.length % 2 === 0 ? hex : `0${hex}`, into, 64 - Math.ceil(hex.length / 2));
}

/** keccak256(keccak256(abi.encode(address, uint256))): the contract's leaf. */
export function leafHash(address: string, amount: bigint, keccak: Keccak = keccak_256): Uint8Array {
  const encoded = new Uint8Array(64);
  encodeLeaf(address, amount, encoded);
  return keccak(keccak(encoded));
}

function compareBytes(a: Uint8Array, aOffset: number, b: Uint8Array, bOffset: number): number {
  for (let i = 0; i < NODE; i++) {
    const diff = a[aOffset + i]! - b[bOffset + i]!;
    if (diff !== 0) return diff;
  }
  return 0;
}

const pair = new Uint8Array(64);
/** keccak256 of the two 32-byte nodes in ascending order (the library's and the contract's rule). */
function hashPair(
  a: Uint8Array,
  aOffset: number,
  b: Uint8Array,
  bOffset: number,
  out: Uint8Array,
  outOffset: number,
  keccak: Keccak,
): void {
  const aFirst = compareBytes(a, aOffset, b, bOffset) <= 0;
  pair.set(a.subarray(aOffset, aOffset + NODE), aFirst ? 0 : NODE);
  pair.set(b.subarray(bOffset, bOffset + NODE), aFirst ? NODE : 0);
  out.set(keccak(pair), outOffset);
}

/**
 * The leaves' indices in ascending order of their hashes, as the library sorts them (a stable sort:
 * equal hashes keep their order). A radix sort on each hash's first four bytes, then the rare runs
 * that share them sorted by the whole hash: for a million leaves about a tenth of the time of
 * Array.prototype.sort with a comparator.
 */
export function sortedLeaves(leaves: Uint8Array, count: number): Uint32Array {
  const key = new Uint32Array(count);
  for (let i = 0, at = 0; i < count; i++, at += NODE)
    key[i] =
      ((leaves[at]! << 24) | (leaves[at + 1]! << 16) | (leaves[at + 2]! << 8) | leaves[at + 3]!) >>>
      0;
  let order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  let sorted = new Uint32Array(count);
  const starts = new Uint32Array(0x10001);
  for (const shift of [0, 16]) {
    starts.fill(0);
    for (let i = 0; i < count; i++) starts[((key[order[i]!]! >>> shift) & 0xffff) + 1]!++;
    for (let digit = 0; digit < 0x10000; digit++) starts[digit + 1]! += starts[digit]!;
    for (let i = 0; i < count; i++) {
      const index = order[i]!;
      sorted[starts[(key[index]! >>> shift) & 0xffff]!++] = index;
    }
    [order, sorted] = [sorted, order];
  }
  for (let start = 0; start < count;) {
    let end = start + 1;
    while (end < count && key[order[end]!] === key[order[start]!]) end++;
    // Insertion sort (stable) of a run of hashes that share their first four bytes.
    for (let i = start + 1; i < end; i++) {
      const index = order[i]!;
      let j = i;
      for (; j > start && compareBytes(leaves, order[j - 1]! * NODE, leaves, index * NODE) > 0; j--)
        order[j] = order[j - 1]!;
      order[j] = index;
    }
    start = end;
  }
  return order;
}

/** A tree whose leaves are hashed and placed, and whose inner nodes are hashed a slice at a time
 * (a round's storage interleaves them with sending its leaves to the database). */
export interface GrowingTree extends Omit<DistributionTree, 'root'> {
  /** Hashes up to `count` more inner nodes, children before parents; true once the root is. */
  hashNodes(count: number): boolean;
  /** The root, once hashNodes() has returned true. */
  root(): string;
}

/** The leaf layer of the tree: every leaf hashed, sorted and placed, with each one's tree index. */
export async function leafLayer(entitlements: readonly Entitlement[]): Promise<GrowingTree> {
  const count = entitlements.length;
  if (count === 0) throw new Error('a tree needs at least one entitlement');
  const keccak = await bulkKeccak();
  const leaves = new Uint8Array(count * NODE);
  const encoded = new Uint8Array(64);
  for (let i = 0; i < count; i++) {
    const { address, amount } = entitlements[i]!;
    encodeLeaf(address, amount, encoded);
    leaves.set(keccak(keccak(encoded)), i * NODE);
  }
  const order = sortedLeaves(leaves, count);

  const length = 2 * count - 1;
  const nodes = new Uint8Array(length * NODE);
  const treeIndex = new Uint32Array(count);
  for (let leafIndex = 0; leafIndex < count; leafIndex++) {
    const valueIndex = order[leafIndex]!;
    const at = length - 1 - leafIndex;
    nodes.set(leaves.subarray(valueIndex * NODE, valueIndex * NODE + NODE), at * NODE);
    treeIndex[valueIndex] = at;
  }
  // The inner nodes are 0 … count - 2; the last of them is hashed first.
  let next = count - 2;
  return {
    nodes,
    treeIndex,
    hashNodes(budget) {
      for (const stop = Math.max(-1, next - budget); next > stop; next--)
        hashPair(
          nodes,
          (2 * next + 1) * NODE,
          nodes,
          (2 * next + 2) * NODE,
          nodes,
          next * NODE,
          keccak,
        );
      return next < 0;
    },
    root() {
      if (next >= 0) throw new Error('the tree is not hashed up to its root yet');
      return bytesToHex(nodes.subarray(0, NODE));
    },
  };
}

export async function buildTree(entitlements: readonly Entitlement[]): Promise<DistributionTree> {
  const tree = await leafLayer(entitlements);
  tree.hashNodes(Infinity);
  return { nodes: tree.nodes, treeIndex: tree.treeIndex, root: tree.root() };
}

/** The tree indices of the proof of the node at `index`: its siblings, leaf to root. */
export function siblingIndices(index: number): number[] {
  const siblings: number[] = [];
  for (let i = index; i > 0; i = Math.floor((i - 1) / 2))
    siblings.push(i % 2 === 1 ? i + 1 : i - 1);
  return siblings;
}

/** The sibling hashes from the leaf at `index` up to the root. */
export function proofAt(nodes: Uint8Array, index: number): string[] {
  return siblingIndices(index).map((sibling) =>
    bytesToHex(nodes.subarray(sibling * NODE, sibling * NODE + NODE)),
  );
}

/** The root a proof leads to from (address, amount), as the contract computes it. */
export function processProof(address: string, amount: bigint, proof: readonly string[]): string {
  const node = leafHash(address, amount);
  const sibling = new Uint8Array(NODE);
  for (const step of proof) {
    hexToBytes(step, sibling, 0);
    hashPair(node, 0, sibling, 0, node, 0, keccak_256);
  }
  return bytesToHex(node);
}

export function verifyProof(
  root: string,
  address: string,
  amount: bigint,
  proof: readonly string[],
): boolean {
  return processProof(address, amount, proof).toLowerCase() === root.toLowerCase();
}
