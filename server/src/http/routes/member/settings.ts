// The account page's security settings: the profile (the name the greetings use), whether
// two-factor sign-in is on, and the places the member is signed in, each of which they can end.
// Two-factor enrolment itself is better-auth's (http/routes/auth-proxy.ts); the password, the data
// export and deleting the account are in their own modules. The queries live in domain/members/settings.ts.
import {
  deviceName,
  errorResponse,
  okResponse,
  profileRequest,
  securityResponse,
  sessionIdParams,
  signedOutResponse,
} from '@crw/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../../app-error';
import { memberRoutes } from '../../guards/member-scope';
import type { AppServices } from '../../../services';
import { endSessions, securityOf, updateProfile } from '../../../domain/members/settings';

export const settingsRoutes = (services: AppServices): FastifyPluginAsyncZod =>
  memberRoutes(services.sessions, async (app) => {
    const { sessions, database } = services;
    const db = database.db;

    /** Sessions ended here are forgotten in this process before the answer leaves; the table's
     * trigger tells the others (and closes those sessions' event streams everywhere). */
    const signOut = async (...args: Parameters<typeof endSessions>) => {
      const tokens = await endSessions(...args);
      for (const token of tokens) sessions.cache.forgetToken(token);
      return tokens.length;
    };

    app.get(
      '/security',
      {
        schema: {
          summary: "The member's two-factor setting and where they are signed in",
          response: { 200: securityResponse, 401: errorResponse },
        },
      },
      async (request) => {
        const { userId, token } = request.member;
        const security = await securityOf(db, userId, token);
        if (!security) throw new AppError(401, 'unauthorized');
        return {
          twoFactorEnabled: security.twoFactorEnabled,
          sessions: security.sessions.map((row) => ({
            id: row.id,
            device: deviceName(row.userAgent),
            ipAddress: row.ipAddress,
            signedInAt: new Date(row.createdAt).toISOString(),
            lastSeenAt: new Date(row.updatedAt).toISOString(),
            current: row.current,
          })),
        };
      },
    );

    app.delete(
      '/sessions/:id',
      {
        schema: {
          summary: 'Sign out one of the places the member is signed in',
          params: sessionIdParams,
          response: { 200: signedOutResponse, 401: errorResponse, 404: errorResponse },
        },
      },
      async (request) => {
        // Another member's session id is "not found", as one that does not exist.
        const signedOut = await signOut(db, request.member.userId, { id: request.params.id });
        if (signedOut === 0) throw new AppError(404, 'not_found');
        return { signedOut };
      },
    );

    app.post(
      '/sessions/sign-out-others',
      {
        schema: {
          summary: 'Sign out everywhere but here',
          response: { 200: signedOutResponse, 401: errorResponse },
        },
      },
      async (request) => {
        const { userId, token } = request.member;
        return { signedOut: await signOut(db, userId, { keepToken: token }) };
      },
    );

    app.put(
      '/profile',
      {
        schema: {
          summary: 'Change the name and username',
          body: profileRequest,
          response: { 200: okResponse, 400: errorResponse, 401: errorResponse },
        },
      },
      async (request) => {
        await updateProfile(db, request.member.userId, request.body);
        return { ok: true as const };
      },
    );
  });
