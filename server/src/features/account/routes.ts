// The member's account: sign-up (register / registerByReferral), the user details the pages show,
// and saveNewWallet after a recovery.
import {
  errorResponse,
  keystoreProblem,
  okResponse,
  registerRequest,
  registerResponse,
  saveWalletRequest,
  userDetailsResponse,
} from '@crw/core';
import type { preHandlerAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../app-error';
import { requireUserId } from '../../auth/session';
import type { AppServices } from '../../services';
import { memberTokens } from '../../distribution/claims';
import { registerMember } from './registration';

function assertKeystore(keystore: string, address: string): void {
  if (keystoreProblem(keystore, address)) throw new AppError(400, 'invalid_keystore');
}

export const accountRoutes =
  (services: AppServices, limitAttempts: preHandlerAsyncHookHandler): FastifyPluginAsyncZod =>
  async (app) => {
    const { auth, database, config } = services;

    app.post(
      '/register',
      {
        preHandler: limitAttempts,
        schema: { summary: 'Create an account with its wallet', body: registerRequest, response: { 201: registerResponse, 400: errorResponse, 409: errorResponse } },
      },
      async (request, reply) => {
        assertKeystore(request.body.wallet.keystore, request.body.wallet.address);
        const requireConfirmation = config.REQUIRE_EMAIL_CONFIRMATION;
        const userId = await registerMember(database.db, { signingKey: services.signingKey, publicUrl: config.publicUrl, requireConfirmation }, request.body);
        services.worker.wake();
        return reply.status(201).send({ needsEmailConfirmation: requireConfirmation, userId });
      },
    );

    app.get('/me', { schema: { summary: 'The signed-in member', response: { 200: userDetailsResponse, 401: errorResponse } } }, async (request) => {
      const userId = await requireUserId(auth, request);
      const row = await database.db
        .selectFrom('profiles')
        .innerJoin('user_wallets', 'user_wallets.user_id', 'profiles.id')
        .innerJoin('user_token_distributions as d', 'd.user_id', 'profiles.id')
        .select(['profiles.id', 'profiles.email', 'profiles.username', 'profiles.full_name', 'profiles.referral_link', 'user_wallets.wallet_address', 'user_wallets.encrypted_wallet'])
        .select(['d.signup_caps', 'd.rrp_balance', 'd.activity_caps'])
        .where('profiles.id', '=', userId)
        .executeTakeFirst();
      if (!row) throw new AppError(401, 'unauthorized');
      return {
        id: row.id,
        email: row.email,
        username: row.username,
        fullName: row.full_name,
        referralCode: row.referral_link,
        referralLink: row.referral_link ? `${config.publicUrl}/r/${row.referral_link}` : null,
        caps: {
          registration: row.signup_caps,
          referrals: row.rrp_balance,
          careActions: row.activity_caps,
          total: row.signup_caps + row.rrp_balance + row.activity_caps,
        },
        wallet: { address: row.wallet_address, keystore: row.encrypted_wallet },
        tokens: await memberTokens(database.db, services.chain, row.id, row.wallet_address, config.REME_PRICE),
      };
    });

    app.put(
      '/wallet',
      { schema: { summary: 'Save the re-encrypted wallet (saveNewWallet)', body: saveWalletRequest, response: { 200: okResponse, 400: errorResponse, 401: errorResponse, 409: errorResponse } } },
      async (request) => {
        const userId = await requireUserId(auth, request);
        assertKeystore(request.body.keystore, request.body.address);
        const updated = await database.db
          .updateTable('user_wallets')
          .set({ encrypted_wallet: request.body.keystore, updated_at: new Date() })
          .where('user_id', '=', userId)
          .where((eb) => eb(eb.fn('lower', ['wallet_address']), '=', request.body.address.toLowerCase()))
          .executeTakeFirst();
        if (updated.numUpdatedRows === 0n) throw new AppError(409, 'wallet_mismatch');
        return { ok: true as const };
      },
    );
  };
