// The operator console's distribution rounds (/api/console/rounds): the dry run of the next round
// as pages of a table, publishing with its progress, and the rounds published so far.
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
    }),
  ),
});
