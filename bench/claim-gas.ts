// Gas of RewardsDistributor.claim in a 100,000-member round: 20 first claims, then 20 repeat
// claims after a second round raises those members' amounts. Prints medians and ranges.
// Then the relayer's claimMany in a 1,000-member round (BATCH_MEMBERS): gas per claim (the batch's
// gasUsed / its claims) of 5 batches each of 10, 50 and 100 first claims, then of the same batches
// as repeat claims after a second round. --smoke: 5 claims in a 1,000-member round, one batch of
// each size in a 200-member round.
import type { Contract } from 'ethers';
import { BrowserProvider, Wallet, getAddress, hexlify, parseEther, randomBytes } from 'ethers';
import { buildTree, proofAt, type Entitlement } from '@crw/core';
import {
  claimManyOutcome,
  createDevChain,
  deployContracts,
  WELL_KNOWN_TEST_KEYS,
  type BatchClaim,
} from '@crw/contracts';
import { median, sized } from './lib/harness';

const MEMBERS = sized(Number(process.env.MEMBERS ?? 100_000), 1_000);
const SAMPLE = sized(20, 5);
const BATCH_MEMBERS = sized(Number(process.env.BATCH_MEMBERS ?? 1_000), 200);
const BATCH_SIZES = [10, 50, 100];
const BATCHES = sized(5, 1);
if (BATCH_MEMBERS < BATCHES * BATCH_SIZES.reduce((sum, size) => sum + size, 0))
  throw new Error('BATCH_MEMBERS is too small for the batches');

const provider = new BrowserProvider(await createDevChain(WELL_KNOWN_TEST_KEYS), undefined, {
  cacheTimeout: -1,
});
const operator = new Wallet(WELL_KNOWN_TEST_KEYS[0]!, provider);
const { distributor } = await deployContracts(operator, parseEther('1000000000'));
const claimer = distributor.connect(new Wallet(WELL_KNOWN_TEST_KEYS[1]!, provider)) as Contract;

const entitlements: Entitlement[] = Array.from({ length: MEMBERS }, (_, i) => ({
  address: getAddress(hexlify(randomBytes(20))),
  amount: parseEther(String(200 + (i % 4) * 25)),
}));
const sample = Array.from({ length: SAMPLE }, (_, i) => Math.floor((i * MEMBERS) / SAMPLE));

async function round(index: number): Promise<number[]> {
  const tree = await buildTree(entitlements);
  const total = entitlements.reduce((sum, e) => sum + e.amount, 0n);
  await (await distributor.getFunction('proposeRoot')(index, tree.root, total)).wait();
  const gas: number[] = [];
  for (const i of sample) {
    const { address, amount } = entitlements[i]!;
    const proof = proofAt(tree.nodes, tree.treeIndex[i]!);
    const receipt = await (
      await claimer.getFunction('claim')(address, amount, proof, index)
    ).wait();
    gas.push(Number(receipt.gasUsed));
  }
  return gas;
}

function report(label: string, gas: number[], goal?: number) {
  const range = `min ${Math.min(...gas).toLocaleString('en')}, max ${Math.max(...gas).toLocaleString('en')}`;
  console.log(
    `${label.padEnd(14)} median ${median(gas).toLocaleString('en')} gas (${range}${goal === undefined ? '' : `; goal ≤ ${goal.toLocaleString('en')}`})`,
  );
}

const proofLengths = (members: number) =>
  `proofs of ${Math.ceil(Math.log2(members)) - 1}–${Math.ceil(Math.log2(members))} hashes`;

console.log(
  `claim gas, ${MEMBERS.toLocaleString('en')}-member round, ${SAMPLE} claims each (${proofLengths(MEMBERS)})`,
);
// Goals (issue 28): within 5 % of the figures before the review window's check, 70,884 and 53,770
// for a 100,000-member round, 35,718 per claim in batches of 100 (docs/decisions/0027).
report('first claim', await round(1), 74_428);
for (const i of sample) entitlements[i]!.amount += parseEther('100');
report('repeat claim', await round(2), 56_458);

// claimMany, sent by a relayer for the members, on contracts of its own.
const batched = (await deployContracts(operator, parseEther('1000000000'))).distributor;
const relayer = batched.connect(new Wallet(WELL_KNOWN_TEST_KEYS[1]!, provider)) as Contract;
const batchEntitlements: Entitlement[] = Array.from({ length: BATCH_MEMBERS }, (_, i) => ({
  address: getAddress(hexlify(randomBytes(20))),
  amount: parseEther(String(200 + (i % 4) * 25)),
}));
// BATCHES disjoint batches of each size: the entitlement indices of each.
let next = 0;
const batches = BATCH_SIZES.map((size) =>
  Array.from({ length: BATCHES }, () => Array.from({ length: size }, () => next++)),
);

/** Publishes round `index` and sends every batch; gas per claim of each batch, by batch size. */
async function batchRound(index: number): Promise<number[][]> {
  const tree = await buildTree(batchEntitlements);
  const total = batchEntitlements.reduce((sum, e) => sum + e.amount, 0n);
  await (await batched.getFunction('proposeRoot')(index, tree.root, total)).wait();
  const gas: number[][] = [];
  for (const ofSize of batches) {
    const perClaim: number[] = [];
    for (const members of ofSize) {
      const claims: BatchClaim[] = members.map((i) => ({
        account: batchEntitlements[i]!.address,
        cumulativeAmount: batchEntitlements[i]!.amount,
        proof: proofAt(tree.nodes, tree.treeIndex[i]!),
      }));
      const receipt = await (await relayer.getFunction('claimMany')(index, claims)).wait();
      const outcome = claimManyOutcome(await batched.getAddress(), receipt.logs);
      if (outcome.paid.length !== claims.length)
        throw new Error(`batch paid ${outcome.paid.length} of ${claims.length}`);
      perClaim.push(Math.round(Number(receipt.gasUsed) / claims.length));
    }
    gas.push(perClaim);
  }
  return gas;
}

console.log(
  `claimMany gas per claim, ${BATCH_MEMBERS.toLocaleString('en')}-member round, ${BATCHES} batches of each size (${proofLengths(BATCH_MEMBERS)})`,
);
const firstBatches = await batchRound(1);
BATCH_SIZES.forEach((size, s) =>
  report(`first × ${size}`, firstBatches[s]!, size === 100 ? 37_503 : 40_000),
);
for (const e of batchEntitlements) e.amount += parseEther('100');
const repeatBatches = await batchRound(2);
BATCH_SIZES.forEach((size, s) => report(`repeat × ${size}`, repeatBatches[s]!));
