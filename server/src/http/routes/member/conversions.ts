// Converting care CAPs into REME (docs/product.md#caps-and-reme): the member's own conversions and
// a new one. The rules are the database's (convert_care_caps, migration 0030).
import {
  conversionRequest,
  conversionResponse,
  conversionsResponse,
  errorResponse,
} from '@crw/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../../app-error';
import {
  conversionByRequest,
  convertCareCaps,
  memberConversions,
} from '../../../domain/rewards/conversions';
import { memberRoutes } from '../../guards/member-scope';
import type { AppServices } from '../../../services';
import { limitPerMember } from '../../guards/member-rate-limit';

/** A member converts a few times a month; a script converting one CAP at a time is stopped. */
const CONVERSIONS_PER_MINUTE = 20;

export const conversionRoutes =
  (services: AppServices): FastifyPluginAsyncZod =>
  async (app) => {
    const db = services.database.db;
    const limit = limitPerMember('conversions', CONVERSIONS_PER_MINUTE);
    await app.register(
      memberRoutes(services.sessions, async (member) => {
        member.get(
          '/',
          {
            schema: {
              summary: 'The member’s conversions of care CAPs, newest first',
              response: { 200: conversionsResponse, 401: errorResponse },
            },
          },
          async (request, reply) => {
            reply.header('cache-control', 'no-store');
            return { items: await memberConversions(db, request.member.userId) };
          },
        );

        member.post(
          '/',
          {
            schema: {
              summary: 'Convert care CAPs into REME paid in the next round',
              body: conversionRequest,
              response: {
                200: conversionResponse,
                400: errorResponse,
                401: errorResponse,
                409: errorResponse,
                429: errorResponse,
              },
            },
          },
          async (request) => {
            const { userId } = request.member;
            await limit(userId);
            const outcome = await convertCareCaps(
              db,
              userId,
              request.body.caps,
              request.body.requestId,
            );
            switch (outcome) {
              case 'closed':
                throw new AppError(409, 'conversion_closed');
              case 'not_enough':
                throw new AppError(409, 'not_enough_caps');
              case 'key_used':
                throw new AppError(409, 'idempotency_conflict');
            }
            const made = await conversionByRequest(db, userId, request.body.requestId);
            return { conversion: made! };
          },
        );
      }),
    );
  };
