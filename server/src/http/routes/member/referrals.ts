// The signed-in member's network, referral credits and referral balance, and the public check of a
// referral link's code. The queries live in data.ts.
import {
  creditHistoryResponse,
  errorResponse,
  invalidReferralCodeMessage,
  networkStatsResponse,
  normalizeReferralCode,
  pendingReferralRequest,
  pendingReferralResponse,
  referralBalanceResponse,
  referralCodeCheckResponse,
  referralCodeParams,
} from '@crw/core';
import type { preHandlerAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../../app-error';
import { memberRoutes } from '../../guards/member-scope';
import type { AppServices } from '../../../services';
import {
  creditHistory,
  mayAttachReferrer,
  networkStats,
  processReferral,
  referralBalance,
  referrerByCode,
} from '../../../domain/referrals/network';
import { firstNameOf } from '../../../domain/members/names';

export const referralRoutes =
  (services: AppServices, limitAttempts: preHandlerAsyncHookHandler): FastifyPluginAsyncZod =>
  async (app) => {
    const db = services.database.db;

    // A referral link's code, checked when the link is opened (before anyone signs up). It answers
    // valid or not and the inviter's first name (the member shares the link to be named by it) and
    // nothing else about them; each client address gets the attempt limit's number of asks per
    // window, so codes cannot be guessed in bulk.
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
        const referrer = await referrerByCode(db, normalizeReferralCode(request.params.code));
        reply.header('cache-control', 'no-store');
        return referrer
          ? { valid: true, inviter: firstNameOf(referrer.full_name) }
          : { valid: false };
      },
    );

    await app.register(
      memberRoutes(services.sessions, async (member) => {
        // The member's own network (get_referral_hierarchy_with_counts): ids for the tree, a friend
        // of level 1 by the first word of their name (or their wallet shortened), nothing more.
        member.get(
          '/network',
          {
            schema: {
              summary:
                "The member's network, levels 1-3, friends at level 1 by first name (get_referral_hierarchy_with_counts)",
              response: { 200: networkStatsResponse, 401: errorResponse },
            },
          },
          async (request) => networkStats(db, request.member.userId),
        );

        member.get(
          '/credits',
          {
            schema: {
              summary: 'Referral credit history (get_referral_credit_history)',
              response: { 200: creditHistoryResponse, 401: errorResponse },
            },
          },
          async (request) => ({ data: await creditHistory(db, request.member.userId) }),
        );

        member.post(
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
            const { userId } = request.member;
            const code = normalizeReferralCode(request.body.referralCode);
            const referrer = await referrerByCode(db, code);
            if (!code || !referrer)
              throw new AppError(
                400,
                'invalid_referral_code',
                invalidReferralCodeMessage(request.body.referralCode),
              );
            if (!(await mayAttachReferrer(db, userId, referrer.id)))
              throw new AppError(409, 'referral_closed');
            const { success, message } = await processReferral(db, referrer.id, userId, code);
            return { success, ...(message ? { message } : {}) };
          },
        );

        member.get(
          '/balance',
          {
            schema: {
              summary: 'Referral balance (get_user_referral_balance)',
              response: { 200: referralBalanceResponse, 401: errorResponse },
            },
          },
          async (request) => ({
            data: { total_earned: await referralBalance(db, request.member.userId) },
          }),
        );
      }),
    );
  };
