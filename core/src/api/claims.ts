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

/** GET /api/claim/fee-balance: the member's ETH for the claim fee, read from the node at the call. */
export const feeBalanceResponse = z.object({ ethBalance: amount });

/**
 * Where the chain figures (claimed, remeHeld, the round behind distributed) come from: the chain
 * follower's index at `block`, last confirmed against the node `ageSeconds` ago (null before the
 * follower's first pass); `chainReachable` is false when its last attempt could not read the node.
 */
export const chainFiguresAsOf = z.object({
  block: z.nullable(z.int()),
  ageSeconds: z.nullable(z.int().check(z.minimum(0))),
  chainReachable: z.boolean(),
});
export type ChainFiguresAsOf = z.infer<typeof chainFiguresAsOf>;

/** Past this age the figures may be out of date (the follower confirms them every few seconds). */
export const CHAIN_FIGURES_STALE_SECONDS = 60;

export function chainFiguresMayBeOutdated(asOf: ChainFiguresAsOf): boolean {
  return (
    !asOf.chainReachable ||
    asOf.ageSeconds === null ||
    asOf.ageSeconds > CHAIN_FIGURES_STALE_SECONDS
  );
}

/** The member's REME: entitlement, rounds and the chain as the follower indexed it (never a chain
 * call). Chain figures are null before the follower's first pass. */
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
  /** forClaiming split: the unclaimed signup bonus first, then the rest. */
  claimSplit: z.object({ signup: amount, referral: amount }),
  signupTokens: amount,
  remeHeld: z.nullable(amount),
  /** GBP per REME (REME_PRICE), a decimal string. */
  remePrice: z.string(),
  asOf: chainFiguresAsOf,
  /** A round in review that holds the member (docs/decisions/0027): what it adds to what the
   * active round gives them, and when they can claim it. Part of `incoming` until then. */
  inReview: z.optional(
    z.object({
      round: z.int(),
      /** The member's cumulative amount in the round in review. */
      total: amount,
      adds: amount,
      claimableFrom: z.iso.datetime(),
      /** Whether the member already told the community that something is wrong in it. */
      reported: z.boolean(),
    }),
  ),
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
  /** The first changes, largest increase first (the whole list can be a million rows). */
  changes: z.array(z.object({ address, previous: amount, next: amount })),
  /** An unfinished round from an earlier run, which publishing will finish first. */
  openRound: z.nullable(z.int()),
});
export type RoundPreview = z.infer<typeof roundPreviewResponse>;

export const publishRoundResponse = z.object({
  index: z.int(),
  root: z.string(),
  members: z.int(),
  total: amount,
  txHash: z.string(),
  /** 'published' now; 'resumed' when an interrupted round was finished; 'unchanged' when nothing
   * changed; 'in_review' when the round before is still in review (one at a time), so nothing new
   * was proposed. */
  outcome: z.enum(['published', 'resumed', 'unchanged', 'in_review']),
  /** When members can claim the round (ISO time, the chain's clock). */
  activeAt: z.optional(z.string()),
  /** Whether the round is in review (the distributor's window has not ended on chain yet). */
  inReview: z.optional(z.boolean()),
});
export type PublishRoundResult = z.infer<typeof publishRoundResponse>;

/** Operator: development faucet. */
export const fundRequest = z.object({
  address,
  eth: z.string().check(z.regex(/^\d+(\.\d{1,18})?$/, 'an amount of ETH such as 0.05')),
});
export const fundResponse = z.object({ txHash: hash, balance: amount });

/** POST /api/claim/sponsored: the member's signed request for the operator to claim for them. */
export const sponsoredClaimRequest = z.object({
  account: address,
  cumulativeAmount: amount,
  round: z.int().check(z.minimum(1), z.maximum(2_147_483_647)),
  deadline: z.int().check(z.minimum(0), z.maximum(2 ** 40)),
  signature: z.string().check(z.regex(/^0x[0-9a-fA-F]{130}$/, 'a 65-byte signature')),
});
export type SponsoredClaimRequest = z.infer<typeof sponsoredClaimRequest>;

export const sponsoredClaimStatus = z.enum(['queued', 'sent', 'confirmed', 'failed']);

/** A sponsored claim as its member sees it (the Processing card). */
export const sponsoredClaim = z.object({
  id: z.int(),
  status: sponsoredClaimStatus,
  round: z.int(),
  /** What the claim pays: the cumulative amount less what was claimed before, base units. */
  amount: amount,
  txHash: z.nullable(hash),
  /** Why it failed, in plain words (status failed). */
  reason: z.nullable(z.string()),
  updatedAt: z.string(),
  /** Sent for the member without their asking ("claim for me each round"). */
  forMe: z.boolean(),
});
export type SponsoredClaim = z.infer<typeof sponsoredClaim>;

/**
 * GET /api/claim/sponsored: whether the operator pays the fee now (and why not), and the member's
 * latest sponsored claim.
 */
export const sponsorshipResponse = z.object({
  available: z.boolean(),
  /** Why the member pays the fee themselves (available false). */
  reason: z.nullable(z.string()),
  latest: z.nullable(sponsoredClaim),
});
export type Sponsorship = z.infer<typeof sponsorshipResponse>;

/** Operator: the relayer's wallet, spend and queue (GET /api/operator/relayer). */
export const relayerStatusResponse = z.object({
  enabled: z.boolean(),
  address: z.nullable(address),
  balance: z.nullable(amount),
  spentToday: amount,
  dailyBudget: amount,
  queue: z.object({ queued: z.int(), sent: z.int(), confirmed: z.int(), failed: z.int() }),
  /** Transactions sent and their fees, all time. */
  transactions: z.object({ mined: z.int(), pending: z.int(), failed: z.int(), costWei: amount }),
});
export type RelayerStatus = z.infer<typeof relayerStatusResponse>;

/** Operator: top the relayer up from the operator's account (POST /api/operator/relayer/fund). */
export const fundRelayerRequest = z.object({
  eth: z.string().check(z.regex(/^\d+(\.\d{1,18})?$/, 'an amount of ETH such as 0.05')),
});

/**
 * Operator: send the distributor what it lacks to pay its round in full (POST
 * /api/operator/distributor/fund), from the operator's REME. `txHash` is null when nothing was
 * missing; the figures are the funding check after the transfer.
 */
export const fundDistributorResponse = z.object({
  txHash: z.nullable(hash),
  sent: amount,
  round: z.int(),
  balance: amount,
  owed: amount,
  shortfall: amount,
});

/** GET /api/rounds (public): every round on chain, for the /rounds page (issue 28). */
export const publicRoundsResponse = z.object({
  chain: z.object({
    chainId: z.int(),
    distributorAddress: address,
    explorerUrl: z.nullable(z.string()),
  }),
  /** Hours a proposed round waits before it pays (the distributor's reviewPeriod). */
  reviewHours: z.number(),
  rounds: z.array(
    z.object({
      index: z.int(),
      root: z.string(),
      total: amount,
      /** Null for a round this server did not build. */
      members: z.nullable(z.int()),
      /** in_review: proposed, not paying yet; active: claims prove against it; superseded: a later
       * round carries its amounts; cancelled: a guardian stopped it, it never paid. */
      status: z.enum(['in_review', 'active', 'superseded', 'cancelled']),
      proposedAt: z.nullable(z.string()),
      activeAt: z.nullable(z.string()),
      proposedTx: z.string(),
      cancelledTx: z.nullable(z.string()),
      /** Whether this server built it (its root is the one the server stored). */
      builtHere: z.boolean(),
      tree: z.nullable(z.string()),
    }),
  ),
});
export type PublicRounds = z.infer<typeof publicRoundsResponse>;

/** POST /api/rounds/:index/report: "Something wrong? Tell the community" (issue 28). */
export const roundReportRequest = z.object({
  message: z.string().check(z.trim(), z.minLength(1), z.maxLength(1000)),
});
