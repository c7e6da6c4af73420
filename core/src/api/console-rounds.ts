// The operator console's distribution rounds (/api/console/rounds): the dry run of the next round
// as pages of a table, publishing with its progress, and the rounds published so far with what
// became of their REME.
import * as z from 'zod/mini';
import { plainText } from './common';

const amount = z.string().check(z.regex(/^\d+$/, 'an integer amount in base units'));

export const DRY_RUN_PAGE = 200;
export const DRY_RUN_FILTERS = ['changed', 'new'] as const;

/** GET /api/console/rounds/dry-run: rows `offset`… of the changes, biggest gain first. */
export const dryRunQuery = z.object({
  offset: z._default(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(100_000_000)), 0),
  filter: z._default(z.enum(DRY_RUN_FILTERS), 'changed'),
  /** The start of a wallet address. */
  q: z.optional(plainText(42, { trim: true })),
});

export const dryRunResponse = z.object({
  index: z.number(),
  /** Members in the round's tree, their REME in total, how many gain, how many are new. */
  members: z.number(),
  total: amount,
  changed: z.number(),
  newMembers: z.number(),
  /** An unfinished round from an earlier run, which publishing finishes first. */
  openRound: z.nullable(z.number()),
  computedAt: z.string(),
  /** Rows matching the filter, and this page of them. */
  matching: z.number(),
  offset: z.number(),
  rows: z.array(
    z.object({ userId: z.string(), address: z.string(), previous: amount, next: amount }),
  ),
});
export type DryRun = z.infer<typeof dryRunResponse>;

/** POST /api/console/rounds/dry-run/refresh: the dry run worked out again, at this moment. */
export const dryRunRefreshResponse = z.object({ computedAt: z.string() });

export const ROUND_PHASES = [
  'idle',
  'preparing',
  'prepared',
  'sent',
  'published',
  'failed',
] as const;
export type RoundPhase = (typeof ROUND_PHASES)[number];

/** The "progress" events of GET /api/console/rounds/progress (server-sent events). */
export const roundProgress = z.object({
  phase: z.enum(ROUND_PHASES),
  index: z.nullable(z.number()),
  txHash: z.nullable(z.string()),
  error: z.nullable(z.string()),
});
export type RoundProgress = z.infer<typeof roundProgress>;

export const publishStartedResponse = z.object({ started: z.literal(true) });

/** The latest published rounds whose claims are counted in the history (older ones: null). */
export const COUNTED_ROUNDS = 3;

/** What became of a published round's REME, member by member (issue 30). The first three split
 * the round's members: each is counted once. */
export const roundClaims = z.object({
  /** Members whose wallet claimed the round's amount and whose claim was not sent for them. */
  claimedThemselves: z.number(),
  /** Members whose claim of the round's amount the relayer sent and paid ("claim for me"). */
  claimedForThem: z.number(),
  /** Members who have not claimed the round's amount yet (a claim on its way included). */
  notClaimed: z.number(),
  /** Members sent a reminder about the round (after 7 days, 30 days or both). */
  reminded: z.number(),
  /** When they were counted (counted again at most once a minute). */
  countedAt: z.string(),
});
export type RoundClaims = z.infer<typeof roundClaims>;

export const roundHistoryResponse = z.object({
  rounds: z.array(
    z.object({
      index: z.number(),
      status: z.string(),
      root: z.string(),
      total: amount,
      members: z.number(),
      txHash: z.nullable(z.string()),
      createdAt: z.string(),
      publishedAt: z.nullable(z.string()),
      /** When members can claim it (in review until then); null before it is on chain. */
      activeAt: z.nullable(z.string()),
      /** Null for a round not published, or older than the latest COUNTED_ROUNDS published. */
      claims: z.nullable(roundClaims),
    }),
  ),
});

/** GET /api/console/rounds/alerts: the guardian's view (issue 28) — alerts about the distributor,
 * open ones first, and where to cancel a round in review. */
export const roundAlertsResponse = z.object({
  distributor: z.string(),
  alerts: z.array(
    z.object({
      id: z.number(),
      kind: z.enum([
        'foreign_root',
        'treasury_transfer',
        'treasury_allowance',
        'publisher_eth_low',
      ]),
      round: z.nullable(z.number()),
      text: z.string(),
      raisedAt: z.string(),
      txHash: z.nullable(z.string()),
      resolvedAt: z.nullable(z.string()),
    }),
  ),
  /** What members said about their own line in a round in review ("Something wrong?"), newest first. */
  reports: z.array(
    z.object({
      id: z.number(),
      round: z.number(),
      email: z.string(),
      message: z.string(),
      at: z.string(),
    }),
  ),
});
