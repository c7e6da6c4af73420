// The member's notification choices (the account page), and the one-click unsubscribe of a
// notification mail, which needs no sign-in: its link is signed (domain/notifications/preferences.ts).
import {
  errorResponse,
  notificationSettingsRequest,
  notificationSettingsResponse,
  unsubscribeQuerySchema,
  unsubscribeResponse,
} from '@crw/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../../app-error';
import { memberRoutes } from '../../guards/member-scope';
import { limitPerMember } from '../../guards/member-rate-limit';
import type { AppServices } from '../../../services';
import {
  notificationSettings,
  unsubscribe,
  updateNotificationSettings,
  type NotificationSettings,
} from '../../../domain/notifications/preferences';

/** Choices are changed a few times a visit; a script toggling in a loop is stopped. */
const CHANGES_PER_MINUTE = 30;

export const notificationRoutes =
  (services: AppServices): FastifyPluginAsyncZod =>
  async (app) => {
    const db = services.database.db;
    const limit = limitPerMember('notification-settings', CHANGES_PER_MINUTE);
    const view = (settings: NotificationSettings | undefined) => {
      if (!settings) throw new AppError(401, 'unauthorized');
      return { ...settings, claimForMeAvailable: services.relayer !== undefined };
    };
    await app.register(
      memberRoutes(services.sessions, async (member) => {
        member.get(
          '/settings',
          {
            schema: {
              summary: 'The member’s notification choices',
              response: { 200: notificationSettingsResponse, 401: errorResponse },
            },
          },
          async (request, reply) => {
            reply.header('cache-control', 'no-store');
            return view(await notificationSettings(db, request.member.userId));
          },
        );
        member.put(
          '/settings',
          {
            schema: {
              summary: 'Changes the member’s notification choices',
              body: notificationSettingsRequest,
              response: {
                200: notificationSettingsResponse,
                400: errorResponse,
                401: errorResponse,
                429: errorResponse,
              },
            },
          },
          async (request) => {
            await limit(request.member.userId);
            return view(await updateNotificationSettings(db, request.member.userId, request.body));
          },
        );
      }),
    );
  };

/** /api/unsubscribe: POST turns the link's topic off (RFC 8058 one-click, or the page's button);
 * GET, a mail client opening the header's link, goes to the page that asks first. */
export const unsubscribeRoutes =
  (services: AppServices): FastifyPluginAsyncZod =>
  async (app) => {
    // RFC 8058: the receiver posts "List-Unsubscribe=One-Click", as a form; its body says nothing
    // the link does not, so it is read as text and not looked at.
    for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data'])
      app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: 1024 }, (_r, body, done) =>
        done(null, body),
      );
    app.post(
      '/',
      {
        schema: {
          summary: 'One-click unsubscribe from a notification mail’s topic (no sign-in)',
          querystring: unsubscribeQuerySchema,
          response: { 200: unsubscribeResponse, 400: errorResponse, 410: errorResponse },
        },
      },
      async (request) => unsubscribe(services.database.db, services.signingKey, request.query),
    );
    app.get(
      '/',
      {
        schema: {
          summary:
            'A mail client opening the unsubscribe link: sent on to the page that asks first',
          querystring: unsubscribeQuerySchema,
        },
      },
      async (request, reply) =>
        reply.redirect(
          `/unsubscribe?${new URLSearchParams(request.query as unknown as Record<string, string>).toString()}`,
          303,
        ),
    );
  };
