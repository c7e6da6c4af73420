// The account page's security settings: the profile (the name the greetings use), whether
// two-factor sign-in is on, and the places the member is signed in, each of which they can end.
// Two-factor enrolment itself is better-auth's (auth/auth-routes.ts); the password, the data
// export and deleting the account are in their own modules.
import {
  deviceName,
  errorResponse,
  okResponse,
  profileRequest,
  securityResponse,
  sessionIdParams,
  signedOutResponse,
} from '@crw/core';
import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../app-error';
import { MEMBER_EVENTS_CHANNEL } from '../../realtime/member-events';
import type { AppServices } from '../../services';

interface SessionRow {
  id: string;
  userAgent: string | null;
  ipAddress: string | null;
  createdAt: Date;
  updatedAt: Date;
  current: boolean;
}

export const settingsRoutes =
  (services: AppServices): FastifyPluginAsyncZod =>
  async (app) => {
    const { sessions, database } = services;
    const db = database.db;

    /** Sessions deleted here are forgotten in this process before the answer leaves; the table's
     * trigger tells the others (and closes those sessions' event streams everywhere). */
    const endSessions = async (where: ReturnType<typeof sql>) => {
      const ended = await sql<{
        token: string;
      }>`DELETE FROM session WHERE ${where} RETURNING token`.execute(db);
      for (const { token } of ended.rows) sessions.cache.forgetToken(token);
      return ended.rows.length;
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
        const { userId, token } = await sessions.requireCurrent(request);
        const [user, rows] = await Promise.all([
          sql<{
            twoFactorEnabled: boolean | null;
          }>`SELECT "twoFactorEnabled" FROM "user" WHERE id = ${userId}`.execute(db),
          sql<SessionRow>`
            SELECT id, "userAgent", "ipAddress", "createdAt", "updatedAt", token = ${token} AS current
            FROM session WHERE "userId" = ${userId} AND "expiresAt" > now()
            ORDER BY current DESC, "updatedAt" DESC`.execute(db),
        ]);
        if (user.rows.length === 0) throw new AppError(401, 'unauthorized');
        return {
          twoFactorEnabled: user.rows[0]!.twoFactorEnabled === true,
          sessions: rows.rows.map((row) => ({
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
        const { userId } = await sessions.requireCurrent(request);
        // Another member's session id is "not found", as one that does not exist.
        const signedOut = await endSessions(
          sql`id = ${request.params.id} AND "userId" = ${userId}`,
        );
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
        const { userId, token } = await sessions.requireCurrent(request);
        return { signedOut: await endSessions(sql`"userId" = ${userId} AND token <> ${token}`) };
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
        const userId = await sessions.requireUserId(request);
        const { fullName, username } = request.body;
        await db.transaction().execute(async (trx) => {
          await trx
            .updateTable('profiles')
            .set({ full_name: fullName, username })
            .where('id', '=', userId)
            .execute();
          await sql`UPDATE "user" SET name = ${fullName}, "updatedAt" = now() WHERE id = ${userId}`.execute(
            trx,
          );
          // Every process's copy of the member and their open tabs hear of it.
          await sql`SELECT pg_notify(${MEMBER_EVENTS_CHANNEL}, ${userId})`.execute(trx);
        });
        return { ok: true as const };
      },
    );
  };
