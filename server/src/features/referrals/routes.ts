// The signed-in member's network, referral credits and referral balance, read through the SQL
// functions of SPEC §7 so the screens and the functions can never disagree.
import {
  creditHistoryResponse,
  errorResponse,
  invalidReferralCodeMessage,
  networkStatsResponse,
  normalizeReferralCode,
  PENDING_REFERRAL_EXPIRY_MS,
  pendingReferralRequest,
  pendingReferralResponse,
  referralBalanceResponse,
  referralCodeCheckResponse,
  referralCodeParams,
} from '@crw/core';
import { AppError } from '../../app-error';
import type { preHandlerAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import type { AppServices } from '../../services';

const iso = (d: Date | string) => new Date(d).toISOString();

export const referralRoutes =
  (services: AppServices, limitAttempts: preHandlerAsyncHookHandler): FastifyPluginAsyncZod =>
  async (app) => {
    const { sessions, database } = services;
    const db = database.db;

    app.get(
      '/network',
      {
        schema: {
          summary: 'Network stats (get_referral_hierarchy_with_counts)',
          response: { 200: networkStatsResponse, 401: errorResponse },
        },
      },
      async (request) => {
        const userId = await sessions.requireUserId(request);
        const result = await sql<{
          r: {
            success: boolean;
            data: {
              hierarchy: Array<{ referred_id: string; level: number; created_at: string }>;
              level_counts: { level1: number; level2: number; level3: number };
              total_network_size: number;
            };
          };
        }>`
        SELECT get_referral_hierarchy_with_counts(${userId}) AS r`.execute(db);
        const stats = result.rows[0]!.r;
        const ids = stats.data.hierarchy.map((h) => h.referred_id);
        const parents = ids.length
          ? await db
              .selectFrom('profiles')
              .select(['id', 'referred_by'])
              .where('id', 'in', ids)
              .execute()
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
      },
    );

    app.get(
      '/credits',
      {
        schema: {
          summary: 'Referral credit history (get_referral_credit_history)',
          response: { 200: creditHistoryResponse, 401: errorResponse },
        },
      },
      async (request) => {
        const userId = await sessions.requireUserId(request);
        const rows = await sql<{
          id: number;
          from_user_id: string | null;
          amount: number;
          level: number | null;
          created_at: Date;
          description: string;
        }>`
        SELECT * FROM get_referral_credit_history(${userId}) LIMIT 500`.execute(db);
        return { data: rows.rows.map((r) => ({ ...r, created_at: iso(r.created_at) })) };
      },
    );

    // A referral link's code, checked when the link is opened (before anyone signs up). It answers
    // valid or not and nothing about the member; each client address gets the attempt limit's
    // number of asks per window, so codes cannot be guessed in bulk.
    app.get(
      '/codes/:code',
      {
        preHandler: limitAttempts,
        schema: {
          summary: 'Whether a referral code names a member (public; limited per client address)',
          params: referralCodeParams,
          response: { 200: referralCodeCheckResponse, 400: errorResponse, 429: errorResponse },
        },
      },
      async (request, reply) => {
        const code = normalizeReferralCode(request.params.code);
        const referrer = code
          ? await db
              .selectFrom('profiles')
              .select('id')
              .where('referral_link', '=', code)
              .executeTakeFirst()
          : undefined;
        reply.header('cache-control', 'no-store');
        return { valid: referrer !== undefined };
      },
    );

    app.post(
      '/pending',
      {
        schema: {
          summary: 'Process a pending referral at sign-in (process_referral_enhanced)',
          body: pendingReferralRequest,
          response: {
            200: pendingReferralResponse,
            400: errorResponse,
            401: errorResponse,
            409: errorResponse,
          },
        },
      },
      async (request) => {
        const userId = await sessions.requireUserId(request);
        const code = normalizeReferralCode(request.body.referralCode);
        const referrer = code
          ? await db
              .selectFrom('profiles')
              .select('id')
              .where('referral_link', '=', code)
              .executeTakeFirst()
          : undefined;
        if (!referrer)
          throw new AppError(
            400,
            'invalid_referral_code',
            invalidReferralCodeMessage(request.body.referralCode),
          );
        // A pending referral finishes the sign-up it was made at: a member without a referrer may
        // attach one only within PENDING_REFERRAL_EXPIRY_MS of joining, and once (it is then set).
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
        const allowed =
          member.referred_by === referrer.id || (member.referred_by === null && member.recent);
        if (!allowed) throw new AppError(409, 'referral_closed');
        const result = await sql<{
          r: { success: boolean; message?: string };
        }>`SELECT process_referral_enhanced(${referrer.id}, ${userId}, ${code}) AS r`.execute(db);
        const { success, message } = result.rows[0]!.r;
        return { success, ...(message ? { message } : {}) };
      },
    );

    app.get(
      '/balance',
      {
        schema: {
          summary: 'Referral balance (get_user_referral_balance)',
          response: { 200: referralBalanceResponse, 401: errorResponse },
        },
      },
      async (request) => {
        const userId = await sessions.requireUserId(request);
        const result = await sql<{
          r: { data: { total_earned: number } };
        }>`SELECT get_user_referral_balance(${userId}) AS r`.execute(db);
        return { data: { total_earned: Number(result.rows[0]!.r.data.total_earned) } };
      },
    );
  };
