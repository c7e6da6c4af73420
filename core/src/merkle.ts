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

/** keccak256(keccak256(abi.encode(address, uint256))): the contract's leaf. */
export function leafHash(address: string, amount: bigint, keccak: Keccak = keccak_256): Uint8Array {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new Error(`not an address: ${address}`);
  if (amount < 0n || amount >= 1n << 256n) throw new Error(`amount out of range: ${amount}`);
  const encoded = new Uint8Array(64);
  hexToBytes(address, encoded, 12);
  hexToBytes(amount.toString(16).padStart(64, '0'), encoded, 32);
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

export async function buildTree(entitlements: readonly Entitlement[]): Promise<DistributionTree> {
  const count = entitlements.length;
  if (count === 0) throw new Error('a tree needs at least one entitlement');
  const keccak = await bulkKeccak();
  const leaves = new Uint8Array(count * NODE);
  const prefix = new Float64Array(count);
  entitlements.forEach(({ address, amount }, i) => {
    const hash = leafHash(address, amount, keccak);
    leaves.set(hash, i * NODE);
    prefix[i] =
      hash[0]! * 2 ** 40 +
      hash[1]! * 2 ** 32 +
      hash[2]! * 2 ** 24 +
      hash[3]! * 2 ** 16 +
      hash[4]! * 2 ** 8 +
      hash[5]!;
  });
  const order = Array.from({ length: count }, (_, i) => i);
  order.sort((a, b) => prefix[a]! - prefix[b]! || compareBytes(leaves, a * NODE, leaves, b * NODE));

  const length = 2 * count - 1;
  const nodes = new Uint8Array(length * NODE);
  const treeIndex = new Uint32Array(count);
  order.forEach((valueIndex, leafIndex) => {
    const at = length - 1 - leafIndex;
    nodes.set(leaves.subarray(valueIndex * NODE, valueIndex * NODE + NODE), at * NODE);
    treeIndex[valueIndex] = at;
  });
  for (let i = length - 1 - count; i >= 0; i--) {
    hashPair(nodes, (2 * i + 1) * NODE, nodes, (2 * i + 2) * NODE, nodes, i * NODE, keccak);
  }
  return { nodes, treeIndex, root: bytesToHex(nodes.subarray(0, NODE)) };
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
