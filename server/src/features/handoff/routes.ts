// The sister community app's hand-off (DESIGN §3): the member's app asks for a one-time code and
// opens the sister app with it as `authtoken`; the sister app redeems it server to server, once and
// within 60 s, for a JWT of the member's identity signed with the keys published at /auth/.well-known/jwks.json.
import { createHash, randomBytes } from 'node:crypto';
import {
  errorResponse,
  HANDOFF_CODE_TTL_S,
  handoffRedeemRequest,
  handoffRedeemResponse,
  handoffResponse,
} from '@crw/core';
import { getAddress } from 'ethers';
import type { preHandlerAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { AppError } from '../../app-error';
import { hasBearer } from '../../auth/bearer';
import type { AppServices } from '../../services';

/** How long the identity JWT the sister app receives stays valid. */
export const HANDOFF_JWT_TTL_S = 300;

const hashOf = (code: string) => createHash('sha256').update(code).digest('hex');

export const handoffRoutes =
  (services: AppServices, limitAttempts: preHandlerAsyncHookHandler): FastifyPluginAsyncZod =>
  async (app) => {
    const { database, auth, sessions, config } = services;
    const audience = new URL(config.COMMUNITY_APP_URL).origin;

    app.post(
      '/',
      {
        schema: {
          summary: 'A one-time hand-off code for the sister community app, in its URL',
          response: { 200: handoffResponse, 401: errorResponse },
        },
      },
      async (request) => {
        const userId = await sessions.requireUserId(request);
        const code = randomBytes(32).toString('base64url');
        await database.db.transaction().execute(async (trx) => {
          await trx
            .deleteFrom('handoff_codes')
            .where('user_id', '=', userId)
            .where('expires_at', '<', sql<Date>`now()`)
            .execute();
          await trx
            .insertInto('handoff_codes')
            .values({
              code_hash: hashOf(code),
              user_id: userId,
              expires_at: sql<Date>`now() + make_interval(secs => ${HANDOFF_CODE_TTL_S})`,
            })
            .execute();
        });
        const url = new URL(config.COMMUNITY_APP_URL);
        url.searchParams.set('authtoken', code);
        return { url: url.toString(), expiresInSeconds: HANDOFF_CODE_TTL_S };
      },
    );

    app.post(
      '/redeem',
      {
        // The sister app authenticates itself before its attempt counts or its code is looked at.
        onRequest: async (request) => {
          if (!hasBearer(request, services.communityAppSecret))
            throw new AppError(401, 'invalid_client');
        },
        preHandler: limitAttempts,
        schema: {
          summary:
            'Sister app, server to server (Bearer COMMUNITY_APP_CLIENT_SECRET): trade a hand-off code (once, within 60 s) for the member’s identity as a JWT',
          security: [{ bearerAuth: [] }],
          body: handoffRedeemRequest,
          response: {
            200: handoffRedeemResponse,
            400: errorResponse,
            401: errorResponse,
            429: errorResponse,
          },
        },
      },
      async (request) => {
        // One statement marks the code used, so two redeemers racing cannot both win.
        const redeemed = await database.db
          .updateTable('handoff_codes')
          .set({ used_at: sql<Date>`now()` })
          .where('code_hash', '=', hashOf(request.body.code))
          .where('used_at', 'is', null)
          .where('expires_at', '>', sql<Date>`now()`)
          .returning('user_id')
          .executeTakeFirst();
        if (!redeemed) throw new AppError(401, 'invalid_handoff_code');
        const member = await database.db
          .selectFrom('profiles')
          .leftJoin('user_wallets', 'user_wallets.user_id', 'profiles.id')
          .select([
            'profiles.id',
            'profiles.email',
            'profiles.username',
            'profiles.full_name',
            'user_wallets.wallet_address',
          ])
          .where('profiles.id', '=', redeemed.user_id)
          .executeTakeFirstOrThrow();
        const now = Math.floor(Date.now() / 1000);
        const { token } = await auth.api.signJWT({
          body: {
            payload: {
              sub: member.id,
              aud: audience,
              iat: now,
              exp: now + HANDOFF_JWT_TTL_S,
              jti: randomBytes(16).toString('hex'),
              email: member.email,
              username: member.username,
              name: member.full_name,
              wallet: member.wallet_address && getAddress(member.wallet_address),
            },
          },
        });
        request.log.info({ userId: member.id }, 'hand-off code redeemed');
        return { token, tokenType: 'JWT' as const, expiresInSeconds: HANDOFF_JWT_TTL_S };
      },
    );
  };
