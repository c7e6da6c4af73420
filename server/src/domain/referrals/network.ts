// The referrals feature's reads and writes, through the referral SQL functions (described in
// docs/product.md) so the screens and the functions can never disagree.
import { PENDING_REFERRAL_EXPIRY_MS } from '@crw/core';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../infra/db/schema';

const iso = (d: Date | string) => new Date(d).toISOString();

/** Network stats (get_referral_hierarchy_with_counts), each listed member with their referrer. */
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
  const parents = ids.length
    ? await db.selectFrom('profiles').select(['id', 'referred_by']).where('id', 'in', ids).execute()
    : [];
  const parentOf = new Map(parents.map((p) => [p.id, p.referred_by]));
  return {
    success: stats.success,
    data: {
      ...stats.data,
      hierarchy: stats.data.hierarchy.map((h) => ({
        ...h,
        created_at: iso(h.created_at),
        parent_id: parentOf.get(h.referred_id) ?? null,
      })),
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

/** The name a referral link shows its friend: the first word of the inviter's name, at most 40
 * characters, or null when they gave no name (never the username, which is often the e-mail's
 * local part, nor the e-mail). */
export function inviterFirstName(fullName: string | null | undefined): string | null {
  const first = fullName?.trim().split(/\s+/)[0] ?? '';
  return first ? first.slice(0, 40) : null;
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
