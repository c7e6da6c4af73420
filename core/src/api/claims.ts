import * as z from 'zod/mini';

const amount = z.string().check(z.regex(/^\d+$/, 'an integer amount in base units'));
const address = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/));
const hash = z.string().check(z.regex(/^0x[0-9a-fA-F]{64}$/));

/** GET /api/claim (getClaimData): the member's leaf in the current on-chain round. */
export const claimDataResponse = z.object({
  proof: z.array(hash),
  /** Cumulative amount of the member's leaf (0 when they are not in the round). */
  distributedTokens: amount,
  /** The current round on the chain (0 before the first). */
  distributionIndex: z.int().check(z.minimum(0)),
});
export type ClaimData = z.infer<typeof claimDataResponse>;

/** The member's REME: entitlement, rounds and the chain. Chain reads are null when the node is down. */
export const memberTokens = z.object({
  /** Everything earned (signup bonus + referral rewards). */
  entitled: amount,
  /** Earned but not yet in a published round. */
  incoming: amount,
  /** The member's cumulative amount in the current round. */
  distributed: amount,
  claimed: z.nullable(amount),
  /** Distributed minus claimed on the chain. */
  forClaiming: amount,
  /** SPEC §4's split of forClaiming. */
  claimSplit: z.object({ signup: amount, referral: amount }),
  signupTokens: amount,
  remeHeld: z.nullable(amount),
  ethBalance: z.nullable(amount),
  /** GBP per REME (REME_PRICE), a decimal string. */
  remePrice: z.string(),
});
export type MemberTokens = z.infer<typeof memberTokens>;

/** The chain the web app signs for (public; the node's URL is never part of it). */
export const publicChain = z.object({
  chainId: z.int(),
  tokenAddress: address,
  distributorAddress: address,
  explorerUrl: z.nullable(z.string()),
  exchangeUrl: z.string(),
});
export type PublicChain = z.infer<typeof publicChain>;

/** Operator: the dry run of the next round. */
export const roundPreviewResponse = z.object({
  index: z.int(),
  members: z.int(),
  total: amount,
  changed: z.int(),
  changes: z.array(z.object({ address, previous: amount, next: amount })),
  openRound: z.nullable(z.int()),
});

export const publishRoundResponse = z.object({
  index: z.int(),
  root: z.string(),
  members: z.int(),
  total: amount,
  txHash: z.string(),
  outcome: z.enum(['published', 'resumed', 'unchanged']),
});

/** Operator: development faucet. */
export const fundRequest = z.object({
  address,
  eth: z.string().check(z.regex(/^\d+(\.\d{1,18})?$/, 'an amount of ETH such as 0.05')),
});
export const fundResponse = z.object({ txHash: hash, balance: amount });
