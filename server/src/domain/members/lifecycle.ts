// The account lifecycle's storage: the member's password row, the records a password
// change and a deletion rewrite, and the export file's contents.
import { getAddress } from 'ethers';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { AccountExport } from '@crw/core';
import { AppError } from '../../app-error';
import type { DB } from '../../infra/db/schema';
import { storeKeystore } from './member';

const iso = (d: Date | string) => new Date(d).toISOString();

/** better-auth's password row for the member: the hash of their auth secret. */
export async function credentialOf(
  db: Kysely<DB>,
  userId: string,
): Promise<{ id: string; password: string } | undefined> {
  const rows = await sql<{ id: string; password: string | null }>`
    SELECT id, password FROM account WHERE "userId" = ${userId} AND "providerId" = 'credential'`.execute(
    db,
  );
  const row = rows.rows[0];
  return row?.password ? { id: row.id, password: row.password } : undefined;
}

/** Replaces the checked password hash and the keystore together and ends the member's other
 * sessions; answers their tokens. 409 when a change got in first or the wallet is not theirs. */
export async function replacePasswordAndKeystore(
  trx: Transaction<DB>,
  change: {
    userId: string;
    keepToken: string;
    credential: { id: string; password: string };
    newHash: string;
    wallet: { address: string; keystore: string };
  },
): Promise<string[]> {
  const { userId, keepToken: token, credential, newHash, wallet } = change;
  // Only the hash just checked is replaced: a change that got in first wins, this one stops.
  const changed = await sql<{ id: string }>`
      UPDATE account SET password = ${newHash}, "updatedAt" = now()
       WHERE id = ${credential.id} AND password = ${credential.password} RETURNING id`.execute(trx);
  if (changed.rows.length === 0) throw new AppError(409, 'conflict');
  const saved = await storeKeystore(trx, userId, wallet);
  if (!saved) throw new AppError(409, 'wallet_mismatch');
  // Whoever else was signed in as the member (another browser, a thief) is signed out; the
  // session table's trigger tells every process at commit.
  const others = await sql<{ token: string }>`
      DELETE FROM session WHERE "userId" = ${userId} AND token <> ${token} RETURNING token`.execute(
    trx,
  );
  return others.rows.map((r) => r.token);
}

/** Deletes the member (delete_current_user) unless a sponsored claim of theirs is under way (409);
 * answers the tokens of the sessions that ended with them. */
export async function deleteMemberRecords(trx: Transaction<DB>, userId: string): Promise<string[]> {
  // A claim the relayer holds or is sending must finish first: its row is what the
  // relayer's batch and the day's budget are reckoned from.
  const busy = await trx
    .selectFrom('sponsored_claims')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', 'in', ['queued', 'sent'])
    .forUpdate()
    .executeTakeFirst();
  if (busy)
    throw new AppError(
      409,
      'claim_in_progress',
      'Your claim is on its way. Please delete your account once it is confirmed.',
    );
  const sessions = await sql<{
    token: string;
  }>`SELECT token FROM session WHERE "userId" = ${userId}`.execute(trx);
  const result = await sql<{
    result: { success: boolean };
  }>`SELECT delete_current_user(${userId}) AS result`.execute(trx);
  if (!result.rows[0]?.result.success) throw new AppError(401, 'unauthorized');
  return sessions.rows.map((r) => r.token);
}

/** The member's data as the export file carries it, or undefined if the member is gone; with
 * `newestLedger`, only that many ledger rows, newest first (the console's member page). */
export async function exportOf(
  db: Kysely<DB>,
  userId: string,
  now: Date,
  opts: { newestLedger?: number } = {},
): Promise<AccountExport | undefined> {
  const profiles = await sql<{
    email: string;
    full_name: string;
    username: string;
    referral_code: string | null;
    created_at: Date;
    email_verified: boolean;
    network_level1: string | number;
    network_level2: string | number;
    network_level3: string | number;
  }>`
    SELECT p.email, p.full_name, p.username, p.referral_code, p.created_at, u."emailVerified" AS email_verified,
           p.network_level1, p.network_level2, p.network_level3
      FROM profiles p JOIN "user" u ON u.id = p.id
     WHERE p.id = ${userId}`.execute(db);
  const profile = profiles.rows[0];
  if (!profile) return undefined;
  const wallet = await db
    .selectFrom('user_wallets')
    .select(['wallet_address', 'updated_at'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const caps = await db
    .selectFrom('user_token_distributions')
    .select(['signup_caps', 'rrp_balance', 'activity_caps'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  // Never from_user_id or source_key: they name the member a referral credit came from.
  const ledgerRows = db
    .selectFrom('reward_ledger')
    .select(['kind', 'caps', 'reme', 'level', 'description', 'created_at'])
    .where('user_id', '=', userId);
  const ledger = await (
    opts.newestLedger === undefined
      ? ledgerRows.orderBy('created_at').orderBy('id')
      : ledgerRows.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(opts.newestLedger)
  ).execute();
  const entries = await db
    .selectFrom('distribution_entries as e')
    .innerJoin('distribution_rounds as r', 'r.round_index', 'e.round_index')
    .select([
      'e.round_index',
      'r.status',
      'e.wallet_address',
      'e.cumulative_amount',
      'r.published_at',
    ])
    .where('e.user_id', '=', userId)
    .orderBy('e.round_index')
    .execute();
  const onChain = wallet
    ? await db
        .selectFrom('chain_events')
        .select(['block_number', 'tx_hash', 'amount'])
        .where('kind', '=', 'claimed')
        .where('to_address', '=', wallet.wallet_address)
        .orderBy('block_number')
        .orderBy('log_index')
        .execute()
    : [];
  const sponsored = await db
    .selectFrom('sponsored_claims')
    .select(['round_index', 'amount', 'status', 'reason', 'created_at', 'updated_at'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  const signals = await db
    .selectFrom('signup_signals')
    .select(['network', 'device_class', 'created_at', 'opened_at'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const registration = Number(caps?.signup_caps ?? 0);
  const referrals = Number(caps?.rrp_balance ?? 0);
  const careActions = Number(caps?.activity_caps ?? 0);
  return {
    format: 'community-rewards-account-export/1',
    exportedAt: now.toISOString(),
    profile: {
      email: profile.email,
      fullName: profile.full_name,
      username: profile.username,
      referralCode: profile.referral_code,
      emailConfirmed: Boolean(profile.email_verified),
      createdAt: iso(profile.created_at),
    },
    wallet: wallet
      ? { address: getAddress(wallet.wallet_address), keystoreUpdatedAt: iso(wallet.updated_at) }
      : null,
    caps: { registration, referrals, careActions, total: registration + referrals + careActions },
    ledger: ledger.map((row) => ({
      kind: row.kind,
      caps: Number(row.caps),
      reme: String(row.reme),
      level: row.level === null ? null : Number(row.level),
      // A referral credit's text is rebuilt from its level, so no stored wording can name anyone.
      description: row.kind === 'referral' ? `Level ${row.level} referral` : row.description,
      createdAt: iso(row.created_at),
    })),
    referralCounts: {
      level1: Number(profile.network_level1),
      level2: Number(profile.network_level2),
      level3: Number(profile.network_level3),
    },
    distributions: entries.map((e) => ({
      round: Number(e.round_index),
      status: e.status,
      walletAddress: getAddress(e.wallet_address),
      cumulativeAmount: String(e.cumulative_amount),
      publishedAt: e.published_at ? iso(e.published_at) : null,
    })),
    signupSignals: signals
      ? {
          network: signals.network,
          deviceClass: signals.device_class,
          createdAt: iso(signals.created_at),
          openedAt: signals.opened_at ? iso(signals.opened_at) : null,
        }
      : null,
    claims: {
      onChain: onChain.map((c) => ({
        blockNumber: Number(c.block_number),
        txHash: c.tx_hash,
        amount: String(c.amount),
      })),
      sponsored: sponsored.map((s) => ({
        round: Number(s.round_index),
        amount: String(s.amount),
        status: s.status,
        reason: s.reason,
        requestedAt: iso(s.created_at),
        updatedAt: iso(s.updated_at),
      })),
    },
  };
}
