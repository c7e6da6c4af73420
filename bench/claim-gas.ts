// Gas of RewardsDistributor.claim in a 100,000-member round: 20 first claims, then 20 repeat
// claims after a second round raises those members' amounts. Prints medians and ranges.
import type { Contract} from 'ethers';
import { BrowserProvider, Wallet, getAddress, hexlify, parseEther, randomBytes } from 'ethers';
import { buildTree, proofAt, type Entitlement } from '@crw/core';
import { createDevChain, deployContracts, WELL_KNOWN_TEST_KEYS } from '@crw/contracts';
import { median } from './lib/harness';

const MEMBERS = Number(process.env.MEMBERS ?? 100_000);
const SAMPLE = 20;

const provider = new BrowserProvider(await createDevChain(WELL_KNOWN_TEST_KEYS), undefined, { cacheTimeout: -1 });
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
  await (await distributor.getFunction('publishRoot')(index, tree.root, total)).wait();
  const gas: number[] = [];
  for (const i of sample) {
    const { address, amount } = entitlements[i]!;
    const proof = proofAt(tree.nodes, tree.treeIndex[i]!);
    const receipt = await (await claimer.getFunction('claim')(address, amount, proof, index)).wait();
    gas.push(Number(receipt.gasUsed));
  }
  return gas;
}

function report(label: string, gas: number[], goal: number) {
  console.log(
    `${label.padEnd(14)} median ${median(gas).toLocaleString('en')} gas (min ${Math.min(...gas).toLocaleString('en')}, max ${Math.max(...gas).toLocaleString('en')}; goal ≤ ${goal.toLocaleString('en')})`,
  );
}

console.log(`claim gas, ${MEMBERS.toLocaleString('en')}-member round, ${SAMPLE} claims each (proofs of ${Math.ceil(Math.log2(MEMBERS)) - 1}–${Math.ceil(Math.log2(MEMBERS))} hashes)`);
report('first claim', await round(1), 85_000);
for (const i of sample) entitlements[i]!.amount += parseEther('100');
report('repeat claim', await round(2), 55_000);
