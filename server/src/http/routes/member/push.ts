// Web push on the member's devices (the account page): the server's public key, and this
// browser's subscription saved with its topics or removed — only ever the member's own.
import {
  errorResponse,
  pushKeyResponse,
  pushSubscriptionRequest,
  pushSubscriptionsResponse,
  pushUnsubscribeRequest,
} from '@crw/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../../app-error';
import {
  pushSubscriptions,
  removePushSubscription,
  savePushSubscription,
} from '../../../domain/notifications/push-subscriptions';
import { memberRoutes } from '../../guards/member-scope';
import { limitPerMember } from '../../guards/member-rate-limit';
import type { AppServices } from '../../../services';

/** A subscription is a few hundred bytes; nothing larger is read. */
const BODY_LIMIT = 4096;
/** Turning notifications on and off happens a few times a visit; a loop is stopped. */
const CHANGES_PER_MINUTE = 30;

export const pushRoutes =
  (services: AppServices): FastifyPluginAsyncZod =>
  async (app) => {
    const db = services.database.db;
    const limit = limitPerMember('push-subscriptions', CHANGES_PER_MINUTE);
    // Outside production a local push service (tests) may be the endpoint.
    const allowLocal = !services.config.isProduction;
    await app.register(
      memberRoutes(services.sessions, async (member) => {
        member.get(
          '/key',
          {
            schema: {
              summary: 'The key browsers subscribe to web push with (VAPID, base64url)',
              response: { 200: pushKeyResponse, 401: errorResponse },
            },
          },
          async () => ({ publicKey: services.push.publicKey }),
        );
        member.get(
          '/subscriptions',
          {
            schema: {
              summary: 'The member’s push subscriptions (their devices) and their topics',
              response: { 200: pushSubscriptionsResponse, 401: errorResponse },
            },
          },
          async (request, reply) => {
            reply.header('cache-control', 'no-store');
            return pushSubscriptions(db, request.member.userId);
          },
        );
        member.post(
          '/subscriptions',
          {
            bodyLimit: BODY_LIMIT,
            schema: {
              summary: 'Saves this browser’s push subscription with its topics',
              body: pushSubscriptionRequest,
              response: {
                200: pushSubscriptionsResponse,
                400: errorResponse,
                401: errorResponse,
                403: errorResponse,
                413: errorResponse,
                429: errorResponse,
              },
            },
          },
          async (request) => {
            const userId = request.member.userId;
            await limit(userId);
            const outcome = await savePushSubscription(db, userId, request.body, {
              userAgent: request.headers['user-agent'],
              allowLocal,
            });
            if (outcome === 'endpoint_refused') throw new AppError(400, 'invalid_request');
            // Another member's subscription (a shared browser): the browser subscribes anew.
            if (outcome === 'taken') throw new AppError(403, 'forbidden');
            return pushSubscriptions(db, userId);
          },
        );
        member.delete(
          '/subscriptions',
          {
            bodyLimit: BODY_LIMIT,
            schema: {
              summary: 'Removes this browser’s push subscription',
              body: pushUnsubscribeRequest,
              response: {
                200: pushSubscriptionsResponse,
                400: errorResponse,
                401: errorResponse,
                404: errorResponse,
                413: errorResponse,
                429: errorResponse,
              },
            },
          },
          async (request) => {
            const userId = request.member.userId;
            await limit(userId);
            if (!(await removePushSubscription(db, userId, request.body.endpoint)))
              throw new AppError(404, 'not_found');
            return pushSubscriptions(db, userId);
          },
        );
      }),
    );
  };
