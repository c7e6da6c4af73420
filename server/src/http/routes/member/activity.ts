// The member's activity on the dashboard: what happened to their rewards, newest first
// (domain/members/activity.ts). Read-only and the member's own.
import { activityResponse, errorResponse } from '@crw/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberActivity } from '../../../domain/members/activity';
import { memberRoutes } from '../../guards/member-scope';
import type { AppServices } from '../../../services';

export const activityRoutes =
  (services: AppServices): FastifyPluginAsyncZod =>
  async (app) => {
    const db = services.database.db;
    await app.register(
      memberRoutes(services.sessions, async (member) => {
        member.get(
          '/',
          {
            schema: {
              summary:
                'The member’s activity: credits, conversions, payouts and claims, newest first',
              response: { 200: activityResponse, 401: errorResponse },
            },
          },
          async (request, reply) => {
            reply.header('cache-control', 'no-store');
            return { items: await memberActivity(db, request.member.userId) };
          },
        );
      }),
    );
  };
