// What each wallet may claim in total (the signup bonus, referral rewards and the REME its member
// converted care CAPs into) next to what the latest published round gave it.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../infra/db/schema';

export interface MemberEntitlement {
  userId: string;
  address: string;
  amount: bigint;
  previous: bigint;
}

export async function latestPublishedRound(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('distribution_rounds')
    .select((eb) => eb.fn.max('round_index').as('index'))
    .where('status', '=', 'published')
    .executeTakeFirst();
  return Number(row?.index ?? 0);
}

/**
 * Every wallet the next round pays, in user id order: each member with a wallet and a positive
 * entitlement, and every leaf of the previous round whose member is gone (deleted), carried forward
 * under the id that no longer names anyone. An address's cumulative amount never decreases from one
 * round to the next: the distributor is funded only by each round's growth in total, so a leaf that
 * left or shrank would leave it short by what that address was already paid
 * (docs/security.md#the-funding-invariant).
 */
export async function entitlements(
  db: Kysely<DB>,
  previousRound: number,
): Promise<MemberEntitlement[]> {
  const result = await sql<{
    user_id: string;
    wallet_address: string;
    amount: string;
    previous: string | null;
  }>`
    WITH current AS (
      SELECT d.user_id, w.wallet_address,
             d.signup_tokens + d.earned_referral_tokens + d.converted_tokens AS amount
      FROM user_token_distributions d
      JOIN user_wallets w ON w.user_id = d.user_id
      WHERE d.signup_tokens + d.earned_referral_tokens + d.converted_tokens > 0
    ), previous AS (
      SELECT user_id, wallet_address, cumulative_amount
      FROM distribution_entries WHERE round_index = ${previousRound}
    )
    SELECT coalesce(c.user_id, p.user_id) AS user_id,
           coalesce(c.wallet_address, p.wallet_address) AS wallet_address,
           greatest(coalesce(c.amount, 0), coalesce(p.cumulative_amount, 0)) AS amount,
           p.cumulative_amount AS previous
    FROM current c
    FULL JOIN previous p ON p.wallet_address = c.wallet_address
    ORDER BY 1`.execute(db);
  return result.rows.map((row) => ({
    userId: row.user_id,
    address: row.wallet_address,
    amount: BigInt(row.amount),
    previous: BigInt(row.previous ?? 0),
  }));
}
