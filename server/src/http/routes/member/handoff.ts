// The sister community app's hand-off: the member's app asks for a one-time code and
// opens the sister app with it as `authtoken`; the sister app redeems it server to server, once and
// within 60 s, for a JWT of the member's identity signed with the keys published at /auth/.well-known/jwks.json.
import { randomBytes } from 'node:crypto';
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
import { AppError } from '../../../app-error';
import { hasBearer } from '../../guards/bearer';
import { memberRoutes } from '../../guards/member-scope';
import type { AppServices } from '../../../services';
import { redeemHandoffCode, storeHandoffCode } from '../../../domain/members/handoff-codes';
import { redeemLimits } from '../../guards/handoff-redeem-limits';

/** How long the identity JWT the sister app receives stays valid. */
export const HANDOFF_JWT_TTL_S = 300;

export const handoffRoutes =
  (services: AppServices, limitAttempts: preHandlerAsyncHookHandler): FastifyPluginAsyncZod =>
  async (app) => {
    const { database, auth, config } = services;
    const audience = new URL(config.COMMUNITY_APP_URL).origin;
    const limits = redeemLimits(config, database.db, services.communityAppSecret);

    await app.register(
      memberRoutes(services.sessions, async (member) => {
        member.post(
          '/',
          {
            schema: {
              summary: 'A one-time hand-off code for the sister community app, in its URL',
              response: { 200: handoffResponse, 401: errorResponse },
            },
          },
          async (request) => {
            const code = randomBytes(32).toString('base64url');
            await storeHandoffCode(database.db, request.member.userId, code);
            const url = new URL(config.COMMUNITY_APP_URL);
            url.searchParams.set('authtoken', code);
            return { url: url.toString(), expiresInSeconds: HANDOFF_CODE_TTL_S };
          },
        );
      }),
    );

    app.post(
      '/redeem',
      {
        // The sister app authenticates itself before its code is looked at; anyone else's
        // attempt counts against their address (docs/security.md#limits-proxies-files-logs).
        onRequest: async function (request, reply) {
          if (hasBearer(request, services.communityAppSecret)) return;
          await limitAttempts.call(this, request, reply);
          throw new AppError(401, 'invalid_client');
        },
        preHandler: limits.check,
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
        const member = await redeemHandoffCode(database.db, request.body.code);
        if (!member) throw new AppError(401, 'invalid_handoff_code');
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
