// The member's row behind /api/me, in one query: profile, wallet, CAPs, and their token figures
// as the chain follower indexed them (the follower's progress is read apart, member-cache.ts).
import { getAddress } from 'ethers';
import { sql, type Kysely } from 'kysely';
import { notifyMembers } from '../../infra/db/member-notices';
import type { DB } from '../../infra/db/schema';

export async function readMember(db: Kysely<DB>, userId: string) {
  const row = await db
    .selectFrom('profiles')
    .innerJoin('user_wallets', 'user_wallets.user_id', 'profiles.id')
    .innerJoin('user_token_distributions as d', 'd.user_id', 'profiles.id')
    .leftJoin('chain_follower_state as s', (join) => join.onTrue())
    .leftJoin('chain_wallets as w', (join) =>
      join.onRef('w.address', '=', 'user_wallets.wallet_address'),
    )
    .leftJoin('distribution_entries as e', (join) =>
      join.onRef('e.round_index', '=', 's.round_index').onRef('e.user_id', '=', 'profiles.id'),
    )
    // A round in review (at most one), and the member's line in it.
    .leftJoin('distribution_rounds as r', (join) => join.on('r.status', '=', 'in_review'))
    .leftJoin('distribution_entries as re', (join) =>
      join.onRef('re.round_index', '=', 'r.round_index').onRef('re.user_id', '=', 'profiles.id'),
    )
    .leftJoin('round_reports as rr', (join) =>
      join.onRef('rr.round_index', '=', 'r.round_index').onRef('rr.user_id', '=', 'profiles.id'),
    )
    .select([
      'profiles.id',
      'profiles.email',
      'profiles.username',
      'profiles.full_name',
      'profiles.referral_code',
      'user_wallets.wallet_address',
      'user_wallets.encrypted_wallet',
      'user_wallets.locked_by_old_password',
      'user_wallets.phrase_saved_at',
    ])
    .select([
      'd.signup_caps',
      'd.rrp_balance',
      'd.activity_caps',
      'd.signup_tokens',
      'd.earned_referral_tokens',
      'd.converted_caps',
      'd.converted_tokens',
    ])
    .select(['w.reme_balance', 'w.claimed', 'e.cumulative_amount'])
    .select([
      'r.round_index as review_round',
      're.cumulative_amount as review_amount',
      'r.active_at as review_active_at',
      'rr.id as review_reported',
    ])
    .where('profiles.id', '=', userId)
    .executeTakeFirst();
  // The checksummed address is worked out once per read, not on every answer from the cache.
  return row && { ...row, address: getAddress(row.wallet_address) };
}

export type MemberRow = NonNullable<Awaited<ReturnType<typeof readMember>>>;

/** The member's wallet address as stored (lower case), or undefined for an unknown member. */
export async function walletAddressOf(db: Kysely<DB>, userId: string): Promise<string | undefined> {
  const wallet = await db
    .selectFrom('user_wallets')
    .select('wallet_address')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return wallet?.wallet_address;
}

/** Stores the member's re-encrypted keystore for their own wallet (false when the address is not
 * theirs) and tells every process's copy of the member (member-cache.ts) and their open tabs. */
export async function storeKeystore(
  db: Kysely<DB>,
  userId: string,
  wallet: { address: string; keystore: string },
): Promise<boolean> {
  const saved = await db
    .updateTable('user_wallets')
    .set({
      encrypted_wallet: wallet.keystore,
      locked_by_old_password: false,
      updated_at: new Date(),
    })
    .where('user_id', '=', userId)
    .where('wallet_address', '=', wallet.address.toLowerCase())
    .returning('user_id')
    .executeTakeFirst();
  if (!saved) return false;
  await notifyMembers(db, [userId]);
  return true;
}

/** Records that the member whose wallet is at `address` saved its recovery phrase (the wallet's
 * signature was checked); false for an address no member has. Every copy of the member hears. */
export async function recordPhraseSaved(db: Kysely<DB>, address: string): Promise<boolean> {
  const saved = await db
    .updateTable('user_wallets')
    .set({ phrase_saved_at: sql<Date>`coalesce(phrase_saved_at, now())` })
    .where('wallet_address', '=', address.toLowerCase())
    .returning('user_id')
    .executeTakeFirst();
  if (!saved) return false;
  await notifyMembers(db, [saved.user_id]);
  return true;
}

/** After a password reset the keystore is still locked by the old password (migration 0015); every
 * process's copy of the member hears of it. */
export async function lockKeystoreAfterReset(db: Kysely<DB>, userId: string): Promise<void> {
  await db
    .updateTable('user_wallets')
    .set({ locked_by_old_password: true })
    .where('user_id', '=', userId)
    .execute();
  await notifyMembers(db, [userId]);
}
