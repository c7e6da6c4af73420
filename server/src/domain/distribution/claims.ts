// A member's claim data (their leaf in the current round, its proof read from the stored tree) and
// their token figures (entitlement, round, chain balances, claim split). The chain's part
// comes from the chain follower's tables: reading them never calls the node.
import {
  bytesToHex,
  claimSplit,
  siblingIndices,
  type ChainFiguresAsOf,
  type ClaimData,
  type MemberTokens,
} from '@crw/core';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../infra/db/schema';

/** The current round as the chain follower indexed it (0 before the first). */
export async function followedRound(db: Kysely<DB>): Promise<number> {
  const state = await db
    .selectFrom('chain_follower_state')
    .select('round_index')
    .executeTakeFirst();
  return state?.round_index ?? 0;
}

export async function claimData(db: Kysely<DB>, round: number, userId: string): Promise<ClaimData> {
  const entry = await db
    .selectFrom('distribution_entries')
    .select(['cumulative_amount', 'tree_index'])
    .where('round_index', '=', round)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!entry) return { proof: [], distributedTokens: '0', distributionIndex: round };
  const siblings = siblingIndices(entry.tree_index);
  const result = await sql<{ node: Uint8Array }>`
    SELECT substring(r.nodes FROM s.i * 32 + 1 FOR 32) AS node
    FROM distribution_rounds r, unnest(${siblings}::int[]) WITH ORDINALITY AS s(i, n)
    WHERE r.round_index = ${round}
    ORDER BY s.n`.execute(db);
  return {
    proof: result.rows.map((row) => bytesToHex(row.node)),
    distributedTokens: entry.cumulative_amount,
    distributionIndex: round,
  };
}

/** How current the follower's figures are (`syncedAt`: its last pass that reached the node). */
export function figuresAsOf(
  state:
    | { block_number: number | null; synced_at: Date | string | null; last_error: string | null }
    | undefined,
): ChainFiguresAsOf {
  const syncedAt = state?.synced_at ? new Date(state.synced_at).getTime() : null;
  return {
    block: syncedAt === null ? null : state!.block_number,
    ageSeconds: syncedAt === null ? null : Math.max(0, Math.round((Date.now() - syncedAt) / 1000)),
    chainReachable: syncedAt !== null && state!.last_error === null,
  };
}

/** What a member's token figures are computed from: their distribution row, the follower's state,
 * their wallet's indexed figures and their entry in the followed round (/api/me reads it in one query). */
export interface TokenFiguresRow {
  signup_tokens: string;
  earned_referral_tokens: string;
  /** REME bought by converting care CAPs (migration 0030). */
  converted_tokens: string;
  block_number: number | null;
  synced_at: Date | string | null;
  last_error: string | null;
  reme_balance: string | null;
  claimed: string | null;
  cumulative_amount: string | null;
  /** The round in review, if the member is in it: its number, their cumulative amount, when it pays. */
  review_round?: number | null;
  review_amount?: string | null;
  review_active_at?: Date | string | null;
  /** Whether the member reported the round in review (round_reports). */
  review_reported?: number | null;
}

/** The member's token figures, from the database alone: the chain's part is the follower's index. */
export function tokenFigures(row: TokenFiguresRow, remePrice: string): MemberTokens {
  const asOf = figuresAsOf(row);
  const known = asOf.block !== null;
  const claimed = known ? BigInt(row.claimed ?? 0) : null;
  const signupTokens = BigInt(row.signup_tokens);
  const entitled = signupTokens + BigInt(row.earned_referral_tokens) + BigInt(row.converted_tokens);
  const distributed = BigInt(row.cumulative_amount ?? 0);
  const forClaiming = claimed === null || distributed <= claimed ? 0n : distributed - claimed;
  const split = claimSplit({
    forClaiming,
    signupTokens,
    earnedSignupTokens: claimed === null ? 0n : claimed < signupTokens ? claimed : signupTokens,
  });
  return {
    entitled: entitled.toString(),
    incoming: (entitled > distributed ? entitled - distributed : 0n).toString(),
    distributed: distributed.toString(),
    claimed: claimed?.toString() ?? null,
    forClaiming: forClaiming.toString(),
    claimSplit: { signup: split.signup.toString(), referral: split.referral.toString() },
    signupTokens: signupTokens.toString(),
    remeHeld: known ? BigInt(row.reme_balance ?? 0).toString() : null,
    remePrice,
    asOf,
    ...(row.review_round && row.review_amount !== null && row.review_amount !== undefined
      ? {
          inReview: {
            round: row.review_round,
            total: row.review_amount,
            reported: row.review_reported !== null && row.review_reported !== undefined,
            adds: (BigInt(row.review_amount) > distributed
              ? BigInt(row.review_amount) - distributed
              : 0n
            ).toString(),
            claimableFrom: new Date(row.review_active_at!).toISOString(),
          },
        }
      : {}),
  };
}
