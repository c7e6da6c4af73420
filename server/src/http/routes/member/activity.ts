// The member's activity — the dashboard's list and the notification centre's (the bell) — and
// marking it seen (domain/members/activity.ts). The member's own only.
import {
  activityOlderQuery,
  activityOlderResponse,
  activityResponse,
  activitySeenRequest,
  errorResponse,
  okResponse,
} from '@crw/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ACTIVITY_LIMIT,
  markNotificationsSeen,
  memberActivity,
  memberNotifications,
} from '../../../domain/members/activity';
import { memberRoutes } from '../../guards/member-scope';
import { limitPerMember } from '../../guards/member-rate-limit';
import type { AppServices } from '../../../services';

/** The bell is opened a few times a visit; a script marking in a loop is stopped. */
const SEEN_PER_MINUTE = 60;

export const activityRoutes =
  (services: AppServices): FastifyPluginAsyncZod =>
  async (app) => {
    const db = services.database.db;
    const limit = limitPerMember('activity-seen', SEEN_PER_MINUTE);
    await app.register(
      memberRoutes(services.sessions, async (member) => {
        member.get(
          '/',
          {
            schema: {
              summary:
                'The member’s activity (credits, conversions, payouts, claims), newest first, and how much is unread',
              response: { 200: activityResponse, 401: errorResponse },
            },
          },
          async (request, reply) => {
            reply.header('cache-control', 'no-store');
            return memberNotifications(db, request.member.userId);
          },
        );

        member.get(
          '/older',
          {
            schema: {
              summary: 'The page of the member’s activity older than the last line shown',
              querystring: activityOlderQuery,
              response: { 200: activityOlderResponse, 400: errorResponse, 401: errorResponse },
            },
          },
          async (request, reply) => {
            reply.header('cache-control', 'no-store');
            const page = await memberActivity(db, request.member.userId, ACTIVITY_LIMIT + 1, {
              at: new Date(request.query.beforeAt),
              id: request.query.beforeId,
            });
            return { items: page.slice(0, ACTIVITY_LIMIT), more: page.length > ACTIVITY_LIMIT };
          },
        );

        member.post(
          '/seen',
          {
            schema: {
              summary: 'The member saw their activity up to a moment (the notification centre)',
              body: activitySeenRequest,
              response: {
                200: okResponse,
                400: errorResponse,
                401: errorResponse,
                429: errorResponse,
              },
            },
          },
          async (request) => {
            await limit(request.member.userId);
            await markNotificationsSeen(db, request.member.userId, new Date(request.body.upTo));
            return { ok: true as const };
          },
        );
      }),
    );
  };
