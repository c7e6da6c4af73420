// The referrals feature's reads and writes, through the referral SQL functions (described in
// docs/product.md) so the screens and the functions can never disagree.
import { firstNameOf } from '../members/names';
import { PENDING_REFERRAL_EXPIRY_MS, shortAddress } from '@crw/core';
import { getAddress } from 'ethers';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../infra/db/schema';

const iso = (d: Date | string) => new Date(d).toISOString();

/** Network stats (get_referral_hierarchy_with_counts), each listed member with their referrer and
 * only what the member may know of them: a friend of level 1 by the first word of the name they
 * gave, or their wallet address shortened when they gave none; deeper levels unnamed. */
export async function networkStats(db: Kysely<DB>, userId: string) {
  const result = await sql<{
    r: {
      success: boolean;
      data: {
        hierarchy: Array<{ referred_id: string; level: number; created_at: string }>;
        level_counts: { level1: number; level2: number; level3: number };
        total_network_size: number;
      };
    };
  }>`SELECT get_referral_hierarchy_with_counts(${userId}) AS r`.execute(db);
  const stats = result.rows[0]!.r;
  const ids = stats.data.hierarchy.map((h) => h.referred_id);
  const rows = ids.length
    ? await db
        .selectFrom('profiles')
        .leftJoin('user_wallets', 'user_wallets.user_id', 'profiles.id')
        .select([
          'profiles.id',
          'profiles.referred_by',
          'profiles.full_name',
          'user_wallets.wallet_address',
        ])
        .where('profiles.id', 'in', ids)
        .execute()
    : [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  return {
    success: stats.success,
    data: {
      level_counts: stats.data.level_counts,
      total_network_size: stats.data.total_network_size,
      hierarchy: stats.data.hierarchy.map((h) => {
        const row = byId.get(h.referred_id);
        const name = h.level === 1 ? firstNameOf(row?.full_name) : null;
        const wallet = h.level === 1 && !name ? row?.wallet_address : null;
        return {
          referred_id: h.referred_id,
          parent_id: row?.referred_by ?? null,
          level: h.level,
          created_at: iso(h.created_at),
          name,
          short_address: wallet ? shortAddress(getAddress(wallet.toLowerCase())) : null,
        };
      }),
    },
  };
}

/** Referral credit history (get_referral_credit_history), newest first, at most 500. */
export async function creditHistory(db: Kysely<DB>, userId: string) {
  const rows = await sql<{
    id: number;
    from_user_id: string | null;
    amount: number;
    level: number | null;
    created_at: Date;
    description: string;
  }>`SELECT * FROM get_referral_credit_history(${userId}) LIMIT 500`.execute(db);
  return rows.rows.map((r) => ({ ...r, created_at: iso(r.created_at) }));
}

/** The member a (normalized) referral code names, if any. */
export async function referrerByCode(db: Kysely<DB>, code: string | null) {
  if (!code) return undefined;
  return db
    .selectFrom('profiles')
    .select(['id', 'full_name'])
    .where('referral_code', '=', code)
    .executeTakeFirst();
}

/** A pending referral finishes the sign-up it was made at: a member without a referrer may
 * attach one only within PENDING_REFERRAL_EXPIRY_MS of joining, and once (it is then set). */
export async function mayAttachReferrer(
  db: Kysely<DB>,
  userId: string,
  referrerId: string,
): Promise<boolean> {
  const member = await db
    .selectFrom('profiles')
    .select([
      'referred_by',
      sql<boolean>`created_at > now() - make_interval(secs => ${PENDING_REFERRAL_EXPIRY_MS / 1000})`.as(
        'recent',
      ),
    ])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return member.referred_by === referrerId || (member.referred_by === null && member.recent);
}

/** process_referral_enhanced: every check, then the chain and its credits. */
export async function processReferral(
  db: Kysely<DB>,
  referrerId: string,
  userId: string,
  code: string,
) {
  const result = await sql<{
    r: { success: boolean; message?: string };
  }>`SELECT process_referral_enhanced(${referrerId}, ${userId}, ${code}) AS r`.execute(db);
  return result.rows[0]!.r;
}

/** The CAPs earned by referrals (get_user_referral_balance). */
export async function referralBalance(db: Kysely<DB>, userId: string): Promise<number> {
  const result = await sql<{
    r: { data: { total_earned: number } };
  }>`SELECT get_user_referral_balance(${userId}) AS r`.execute(db);
  return Number(result.rows[0]!.r.data.total_earned);
}
