// The member's row behind /api/me, in one query: profile, wallet, CAPs, and their token figures
// as the chain follower indexed them (the follower's progress is read apart, member-cache.ts).
import { getAddress } from 'ethers';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';

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
    .select([
      'profiles.id',
      'profiles.email',
      'profiles.username',
      'profiles.full_name',
      'profiles.referral_link',
      'user_wallets.wallet_address',
      'user_wallets.encrypted_wallet',
      'user_wallets.locked_by_old_password',
    ])
    .select([
      'd.signup_caps',
      'd.rrp_balance',
      'd.activity_caps',
      'd.signup_tokens',
      'd.earned_referral_tokens',
    ])
    .select(['w.reme_balance', 'w.claimed', 'e.cumulative_amount'])
    .where('profiles.id', '=', userId)
    .executeTakeFirst();
  // The checksummed address is worked out once per read, not on every answer from the cache.
  return row && { ...row, address: getAddress(row.wallet_address) };
}

export type MemberRow = NonNullable<Awaited<ReturnType<typeof readMember>>>;
