// The account page's password change, data export and account deletion (issue 18). Changing the
// password and deleting the account ask for the member's current auth secret again, limited per
// member like sign-in (auth/attempt-limits.ts), so a session alone cannot do either.
import {
  accountExportFileName,
  accountExportResponse,
  changePasswordRequest,
  changePasswordResponse,
  deleteMyAccountRequest,
  errorResponse,
  keystoreProblem,
  okResponse,
  type AccountExport,
} from '@crw/core';
import { fromNodeHeaders } from 'better-auth/node';
import { getAddress } from 'ethers';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql, type Kysely } from 'kysely';
import { AppError } from '../../app-error';
import { reauthenticationLimits, type SignInOutcome } from '../../auth/attempt-limits';
import { hashSecret, verifySecret } from '../../auth/password-hash';
import type { DB } from '../../db/schema';
import { MEMBER_EVENTS_CHANNEL } from '../../realtime/member-events';
import type { AppServices } from '../../services';
import { verifyWalletProof, type ProofSite } from './wallet-proof';

const iso = (d: Date | string) => new Date(d).toISOString();

/** better-auth's password row for the member: the hash of their auth secret. */
async function credentialOf(
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

export const accountLifecycleRoutes =
  (services: AppServices): FastifyPluginAsyncZod =>
  async (app) => {
    const { database, config } = services;
    const db = database.db;
    const site: ProofSite = { publicUrl: config.publicUrl, chainId: services.chain.chainId };
    const limits = reauthenticationLimits(config, db);

    /** The member and the token of the session asking (its own session is kept, the others end). */
    async function currentSession(
      request: FastifyRequest,
    ): Promise<{ userId: string; token: string }> {
      // The cached check answers a stranger's request without a query; better-auth then gives the token.
      await services.sessions.requireUserId(request);
      const session = await services.auth.api.getSession({
        headers: fromNodeHeaders(request.headers),
      });
      if (!session) throw new AppError(401, 'unauthorized');
      return { userId: session.user.id, token: session.session.token };
    }

    /** The member's current auth secret, or 403 wrong_password (counted: 429 past the limit). */
    async function reauthenticate(
      request: FastifyRequest,
      userId: string,
      authSecret: string,
    ): Promise<{ id: string; password: string }> {
      await limits.hold(request, userId);
      let outcome: SignInOutcome = 'undecided';
      try {
        const credential = await credentialOf(db, userId);
        if (
          !credential ||
          !(await verifySecret({ hash: credential.password, password: authSecret }))
        ) {
          outcome = 'refused';
          throw new AppError(403, 'wrong_password');
        }
        outcome = 'succeeded';
        return credential;
      } finally {
        await limits.settle(userId, outcome);
      }
    }

    /** This process forgets the ended sessions before answering; the others hear the trigger. */
    const forget = (tokens: string[]) => {
      for (const token of tokens) services.sessions.cache.forgetToken(token);
    };

    app.post(
      '/account/password',
      {
        schema: {
          summary:
            'Change the password: the new auth secret and the keystore re-encrypted with it, together; every other session ends',
          body: changePasswordRequest,
          response: {
            200: changePasswordResponse,
            400: errorResponse,
            401: errorResponse,
            403: errorResponse,
            409: errorResponse,
            429: errorResponse,
          },
        },
      },
      async (request) => {
        const { userId, token } = await currentSession(request);
        const { currentAuthSecret, newAuthSecret, wallet } = request.body;
        if (keystoreProblem(wallet.keystore, wallet.address))
          throw new AppError(400, 'invalid_keystore');
        const credential = await reauthenticate(request, userId, currentAuthSecret);
        // scrypt runs before the transaction, so no connection (PGlite's only one) waits on it.
        const newHash = await hashSecret(newAuthSecret);
        const ended = await db.transaction().execute(async (trx) => {
          await verifyWalletProof(
            trx,
            site,
            { purpose: 'change-password', userId },
            wallet.address,
            wallet.proof,
          );
          // Only the hash just checked is replaced: a change that got in first wins, this one stops.
          const changed = await sql<{ id: string }>`
            UPDATE account SET password = ${newHash}, "updatedAt" = now()
             WHERE id = ${credential.id} AND password = ${credential.password} RETURNING id`.execute(
            trx,
          );
          if (changed.rows.length === 0) throw new AppError(409, 'conflict');
          const saved = await trx
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
          if (!saved) throw new AppError(409, 'wallet_mismatch');
          // Whoever else was signed in as the member (another browser, a thief) is signed out; the
          // session table's trigger tells every process at commit.
          const others = await sql<{ token: string }>`
            DELETE FROM session WHERE "userId" = ${userId} AND token <> ${token} RETURNING token`.execute(
            trx,
          );
          await sql`SELECT pg_notify(${MEMBER_EVENTS_CHANNEL}, ${userId})`.execute(trx);
          return others.rows.map((r) => r.token);
        });
        forget(ended);
        request.log.info({ userId, otherSessionsEnded: ended.length }, 'password changed');
        return { ok: true as const, otherSessionsEnded: ended.length };
      },
    );

    app.get(
      '/account/export',
      {
        schema: {
          summary: "Download the member's data (JSON attachment)",
          response: { 200: accountExportResponse, 401: errorResponse },
        },
      },
      async (request, reply) => {
        const userId = await services.sessions.requireUserId(request);
        const now = new Date();
        const body = await exportOf(db, userId, now);
        if (!body) throw new AppError(401, 'unauthorized');
        reply.header('content-disposition', `attachment; filename="${accountExportFileName(now)}"`);
        reply.header('cache-control', 'no-store');
        return body;
      },
    );

    app.delete(
      '/account',
      {
        schema: {
          summary:
            "Delete the member's account (delete_current_user) after asking for the current auth secret; every session ends",
          body: deleteMyAccountRequest,
          response: {
            200: okResponse,
            400: errorResponse,
            401: errorResponse,
            403: errorResponse,
            409: errorResponse,
            429: errorResponse,
          },
        },
      },
      async (request, reply) => {
        const { userId } = await currentSession(request);
        await reauthenticate(request, userId, request.body.authSecret);
        const ended = await db.transaction().execute(async (trx) => {
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
        });
        forget(ended);
        await limits.settle(userId, 'succeeded');
        // The browser drops its cookie now; the session behind it is already gone.
        const { authCookies } = await services.auth.$context;
        const { name, attributes } = authCookies.sessionToken;
        reply.header(
          'set-cookie',
          `${name}=; Max-Age=0; Path=${attributes.path ?? '/'}; HttpOnly; SameSite=Lax${attributes.secure ? '; Secure' : ''}`,
        );
        request.log.info({ userId, sessionsEnded: ended.length }, 'account deleted by its member');
        return { ok: true as const };
      },
    );
  };

/** The member's data as the export file carries it, or undefined if the member is gone. */
async function exportOf(
  db: Kysely<DB>,
  userId: string,
  now: Date,
): Promise<AccountExport | undefined> {
  const profiles = await sql<{
    email: string;
    full_name: string;
    username: string;
    referral_link: string | null;
    created_at: Date;
    email_verified: boolean;
    network_level1: string | number;
    network_level2: string | number;
    network_level3: string | number;
  }>`
    SELECT p.email, p.full_name, p.username, p.referral_link, p.created_at, u."emailVerified" AS email_verified,
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
  const ledger = await db
    .selectFrom('reward_ledger')
    .select(['kind', 'caps', 'reme', 'level', 'description', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
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
      referralCode: profile.referral_link,
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
