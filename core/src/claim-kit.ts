// The claim kit: one JSON file with everything a member needs to claim their REME without
// this service — their leaf, its proof, the round, the chain and the contracts, the four values of
// the distributor's claim() ready to paste into a block explorer's "Write Contract" page, and plain
// instructions. Built in the browser from GET /api/claim and GET /api/config; nothing in it is
// secret (a claim can only pay the member's own address).
import { keccak_256 } from '@noble/hashes/sha3';
import * as z from 'zod/mini';
import { formatAmount } from './amounts';
import type { ClaimData, PublicChain } from './api/claims';
import { TOKEN_DECIMALS } from './constants';

export const CLAIM_KIT_FORMAT = 'reme-claim-kit/1';
export const CLAIM_FUNCTION =
  'claim(address account, uint256 cumulativeAmount, bytes32[] proof, uint256 index)';

/** The distributor's claim() and the errors a claim can end in, as JSON ABI: for wallet tools that ask
 * for an ABI ("Interact with contract") and to read why a claim was refused. */
export function claimAbi(): ClaimKit['claim']['abi'] {
  return [
    {
      type: 'function',
      name: 'claim',
      stateMutability: 'nonpayable',
      inputs: [
        { name: 'account', type: 'address' },
        { name: 'cumulativeAmount', type: 'uint256' },
        { name: 'proof', type: 'bytes32[]' },
        { name: 'index', type: 'uint256' },
      ],
      outputs: [],
    },
    {
      type: 'error',
      name: 'WrongRound',
      inputs: [
        { name: 'given', type: 'uint256' },
        { name: 'current', type: 'uint256' },
      ],
    },
    { type: 'error', name: 'InvalidProof', inputs: [] },
    {
      type: 'error',
      name: 'NothingToClaim',
      inputs: [
        { name: 'account', type: 'address' },
        { name: 'cumulativeAmount', type: 'uint256' },
        { name: 'claimed', type: 'uint256' },
      ],
    },
  ];
}

/** Chains the kit can name, with their public block explorer (none for the development chain). */
const KNOWN_CHAINS: Record<
  number,
  { name: string; inProse: string; explorerUrl: string | null; feeNote: string }
> = {
  1: {
    name: 'Ethereum',
    inProse: 'Ethereum (mainnet)',
    explorerUrl: 'https://etherscan.io',
    feeNote: 'a little ETH',
  },
  11155111: {
    name: 'Sepolia',
    inProse: 'the Sepolia network',
    explorerUrl: 'https://sepolia.etherscan.io',
    feeNote: 'a little Sepolia ETH (it is free from a "Sepolia faucet" website)',
  },
  31337: {
    name: 'Local development chain',
    inProse: 'the local development chain',
    explorerUrl: null,
    feeNote: 'a little ETH on that chain',
  },
};

const address = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/));
const hash = z.string().check(z.regex(/^0x[0-9a-fA-F]{64}$/));
const wei = z.string().check(z.regex(/^[1-9]\d*$/, 'a positive integer amount in wei'));
const abiParam = z.object({ name: z.string(), type: z.string() });
const argument = <N extends string, T extends string>(name: N, type: T) =>
  z.object({ name: z.literal(name), type: z.literal(type), value: z.string() });

const claimKitShape = z.object({
  format: z.literal(CLAIM_KIT_FORMAT),
  /** The distribution round the proof belongs to (the distributor accepts only the current one). */
  round: z.int().check(z.minimum(1)),
  /** The member's leaf: the address the REME goes to and their cumulative amount up to this round. */
  leaf: z.object({
    account: address,
    cumulativeAmountWei: wei,
    cumulativeAmountReme: z.string().check(z.regex(/^\d+(\.\d+)?$/)),
  }),
  proof: z.array(hash),
  chain: z.object({ id: z.int(), name: z.string(), explorerUrl: z.nullable(z.string()) }),
  token: z.object({ address, symbol: z.literal('REME'), decimals: z.literal(TOKEN_DECIMALS) }),
  /** explorerWritePage: the explorer's "Write Contract" page of the distributor, when there is an explorer. */
  distributor: z.object({ address, explorerWritePage: z.nullable(z.string()) }),
  claim: z.object({
    function: z.literal(CLAIM_FUNCTION),
    /** The four values exactly as a block explorer's form takes them, in order. */
    arguments: z.tuple([
      argument('account', 'address'),
      argument('cumulativeAmount', 'uint256'),
      argument('proof', 'bytes32[]'),
      argument('index', 'uint256'),
    ]),
    /** The same call ABI-encoded: the data of a transaction to the distributor. */
    calldata: z.string().check(z.regex(/^0x[0-9a-f]+$/)),
    /** claim() and its errors as JSON ABI. */
    abi: z.array(
      z.union([
        z.object({
          type: z.literal('function'),
          name: z.string(),
          stateMutability: z.string(),
          inputs: z.array(abiParam),
          outputs: z.array(abiParam),
        }),
        z.object({ type: z.literal('error'), name: z.string(), inputs: z.array(abiParam) }),
      ]),
    ),
  }),
  /** The round's public record (every leaf; anyone can rebuild every proof from it). */
  treeUrl: z.string(),
  instructions: z.array(z.string()).check(z.minLength(1)),
});

/** The claim kit file's shape. The claim's values must be the leaf's, the proof and the round. */
export const claimKitSchema = claimKitShape.check(
  z.refine((kit) => {
    const [account, amount, proof, index] = kit.claim.arguments;
    return (
      account.value === kit.leaf.account &&
      amount.value === kit.leaf.cumulativeAmountWei &&
      proof.value === JSON.stringify(kit.proof) &&
      index.value === String(kit.round) &&
      kit.leaf.cumulativeAmountReme === exactReme(kit.leaf.cumulativeAmountWei) &&
      kit.claim.calldata ===
        claimCalldata(kit.leaf.account, BigInt(kit.leaf.cumulativeAmountWei), kit.proof, kit.round)
    );
  }, 'the claim values must be the leaf, the proof and the round'),
);
export type ClaimKit = z.infer<typeof claimKitShape>;

export interface ClaimKitInput {
  /** The member's wallet address (GET /api/me wallet.address). */
  account: string;
  /** GET /api/claim. */
  claim: ClaimData;
  /** GET /api/config chain. */
  chain: PublicChain;
  /** The site's origin (https://rewards.example.org): where the round's tree.json is published. */
  origin: string;
}

/** Whether the member has a leaf to put in a kit: a published round with a cumulative amount above 0.
 * (An empty proof is a leaf too: the only member of a round has none.) */
export function hasClaimKit(claim: ClaimData): boolean {
  return (
    claim.distributionIndex > 0 &&
    /^\d+$/.test(claim.distributedTokens) &&
    BigInt(claim.distributedTokens) > 0n
  );
}

/** The kit for the member's leaf in the current round. Throws when there is nothing to claim. */
export function buildClaimKit({ account, claim, chain, origin }: ClaimKitInput): ClaimKit {
  if (!hasClaimKit(claim))
    throw new RangeError('There is nothing to claim: no leaf in a published round.');
  if (!/^0x[0-9a-fA-F]{40}$/.test(account)) throw new TypeError(`Not an address: ${account}`);
  const round = claim.distributionIndex;
  const member = toChecksumAddress(account);
  const distributor = toChecksumAddress(chain.distributorAddress);
  const token = toChecksumAddress(chain.tokenAddress);
  const known = KNOWN_CHAINS[chain.chainId];
  const explorerUrl =
    (chain.explorerUrl?.trim() || known?.explorerUrl || null)?.replace(/\/+$/, '') ?? null;
  const writePage = explorerUrl ? `${explorerUrl}/address/${distributor}#writeContract` : null;
  const amountWei = BigInt(claim.distributedTokens).toString();
  const amountReme = exactReme(amountWei);
  const proof = claim.proof.map((node) => node.toLowerCase());
  const proofValue = JSON.stringify(proof);
  const treeUrl = new URL(`/api/distributions/${round}/tree.json`, new URL(origin).origin).href;
  const chainName = known?.name ?? `Chain ${chain.chainId}`;
  const chainInProse = known?.inProse ?? `the network with chain id ${chain.chainId}`;

  const instructions = [
    `This file lets you claim your REME tokens yourself, with any Ethereum wallet (for example MetaMask), even if the Community Rewards website is no longer there. Keep it somewhere safe.`,
    `It holds no password and no secret, only your address and amount: anyone who reads it can at most send your REME to your own address.`,
    `What it claims: ${amountReme} REME in total, for distribution round ${round}, paid to your address ${member}, on ${chainInProse} (chain id ${chain.chainId}).`,
    `The amount is your running total up to round ${round}, not only what this round added. If you have already claimed part of it, the claim pays only the rest.`,
    `A kit works only while round ${round} is the latest round. When a newer round is published, this kit stops working: download the newer kit, whose amount includes this one.`,
    `You need: a wallet app or browser extension such as MetaMask, connected to ${chainInProse}, with ${known?.feeNote ?? 'a little ETH'} to pay the network fee. The fee is paid in ETH, not in REME.`,
    writePage
      ? `Step 1: open ${writePage} in the browser where your wallet is (or go to ${explorerUrl}, search for the distributor contract ${distributor}, open its "Contract" tab, then "Write Contract").`
      : `Step 1: ${chainInProse} has no public block explorer. Open a block explorer or a wallet tool's "Interact with contract" page for this chain, with the distributor contract ${distributor} (the tool may ask for the contract's ABI: it is under claim.abi in this file).`,
    `Step 2: click "Connect to Web3" (or "Connect wallet") and accept the connection in your wallet.`,
    `Step 3: open the function called "claim". It has four boxes. Paste these four values exactly, each into its own box, with nothing added or left out:`,
    `account (address): ${member}`,
    `cumulativeAmount (uint256): ${amountWei}  (this is ${amountReme} REME written in wei, the smallest unit: 1 REME is 1 followed by 18 zeros)`,
    `proof (bytes32[]): ${proofValue}  (copy all of it, with the square brackets and the quotation marks)`,
    `index (uint256): ${round}`,
    `Step 4: click "Write". Your wallet shows the transaction and its network fee in ETH; confirm it. Within a minute or so the REME arrives at ${member}.`,
    `To see your REME in a wallet app, open your own wallet there (in MetaMask: import it with your 12-word recovery phrase), then add (import) the token: contract address ${token}, symbol REME, 18 decimals.`,
    `Someone else can send the claim for you: a friend or family member can follow the same steps with their own wallet and pay the fee. The REME still goes only to your address, ${member}; nobody else can receive it this way.`,
    `Once claimed, the REME is in your own wallet, and only your 12-word recovery phrase can reach it. Never give your recovery phrase to anyone, including whoever helps you claim.`,
    `If the claim is refused: "NothingToClaim" means this amount has already been claimed; "WrongRound" means a newer round has been published (use its kit); "InvalidProof" means a value was not pasted exactly as written here.`,
    ...(writePage
      ? [
          `If the explorer shows no "Write Contract" tab, use any wallet tool's "Interact with contract" page with the distributor's address and the ABI under claim.abi in this file.`,
        ]
      : []),
    `A technical helper can instead send a transaction to ${distributor}, with no ETH value, with claim.calldata in this file as its data.`,
    `The public record of round ${round} is ${treeUrl}: every member's address and amount (an OpenZeppelin StandardMerkleTree). Anyone can rebuild your proof from it.`,
  ];

  return {
    format: CLAIM_KIT_FORMAT,
    round,
    leaf: { account: member, cumulativeAmountWei: amountWei, cumulativeAmountReme: amountReme },
    proof,
    chain: { id: chain.chainId, name: chainName, explorerUrl },
    token: { address: token, symbol: 'REME', decimals: TOKEN_DECIMALS },
    distributor: { address: distributor, explorerWritePage: writePage },
    claim: {
      function: CLAIM_FUNCTION,
      arguments: [
        { name: 'account', type: 'address', value: member },
        { name: 'cumulativeAmount', type: 'uint256', value: amountWei },
        { name: 'proof', type: 'bytes32[]', value: proofValue },
        { name: 'index', type: 'uint256', value: String(round) },
      ],
      calldata: claimCalldata(member, BigInt(amountWei), proof, round),
      abi: claimAbi(),
    },
    treeUrl,
    instructions,
  };
}

/** The file to save: reme-claim-kit-round-<n>.json, the kit as indented JSON. */
export function claimKitFile(kit: ClaimKit): { name: string; type: string; text: string } {
  return {
    name: `reme-claim-kit-round-${kit.round}.json`,
    type: 'application/json',
    text: `${JSON.stringify(kit, null, 2)}\n`,
  };
}

/** Wei as an exact decimal REME amount ("200", "12.5"), nothing rounded. */
function exactReme(amountWei: string): string {
  return formatAmount(amountWei, TOKEN_DECIMALS).replace(/\.?0+$/, '');
}

const hex = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const word = (value: bigint) => value.toString(16).padStart(64, '0');

/** claim(account, cumulativeAmount, proof, index) ABI-encoded (selector, head, then the proof array). */
function claimCalldata(
  account: string,
  cumulativeAmount: bigint,
  proof: readonly string[],
  index: number,
): string {
  const head = [word(BigInt(account)), word(cumulativeAmount), word(4n * 32n), word(BigInt(index))];
  const tail = [word(BigInt(proof.length)), ...proof.map((node) => node.slice(2).toLowerCase())];
  const selector = hex(
    keccak_256(new TextEncoder().encode('claim(address,uint256,bytes32[],uint256)')),
  ).slice(0, 8);
  return `0x${selector}${head.join('')}${tail.join('')}`;
}

/** EIP-55 mixed-case checksum address, as wallets and explorers show it. */
export function toChecksumAddress(address: string): string {
  const lower = address.slice(2).toLowerCase();
  const digest = hex(keccak_256(new TextEncoder().encode(lower)));
  let out = '0x';
  for (let i = 0; i < 40; i++)
    out += parseInt(digest[i]!, 16) >= 8 ? lower[i]!.toUpperCase() : lower[i];
  return out;
}
