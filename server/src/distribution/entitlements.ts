// What each member may claim in total (the signup bonus plus referral rewards, DESIGN §4) next
// to what the latest published round gave them.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema';

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

/** Every member with a wallet and a positive entitlement, in user id order. */
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
    SELECT d.user_id, w.wallet_address, d.signup_tokens + d.earned_referral_tokens AS amount, e.cumulative_amount AS previous
    FROM user_token_distributions d
    JOIN user_wallets w ON w.user_id = d.user_id
    LEFT JOIN distribution_entries e ON e.round_index = ${previousRound} AND e.user_id = d.user_id
    WHERE d.signup_tokens + d.earned_referral_tokens > 0
    ORDER BY d.user_id`.execute(db);
  return result.rows.map((row) => ({
    userId: row.user_id,
    address: row.wallet_address,
    amount: BigInt(row.amount),
    previous: BigInt(row.previous ?? 0),
  }));
}
