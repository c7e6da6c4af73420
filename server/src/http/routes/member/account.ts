// The member's account: sign-up (register / registerByReferral), the user details the pages show,
// and saveNewWallet after a recovery; the account page's routes (lifecycle.ts) live under it.
import {
  errorResponse,
  heldRewardsResponse,
  keystoreProblem,
  okResponse,
  phraseSavedRequest,
  registerCheckRequest,
  registerRequest,
  registerResponse,
  userDetailsQuery,
  userDetailsResponse,
  walletChallengeRequest,
  walletChallengeResponse,
  walletPayload,
} from '@crw/core';
import type { preHandlerAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../../app-error';
import { memberRoutes } from '../../guards/member-scope';
import type { SignupGate } from '../../guards/signup-gate';
import type { AppServices } from '../../../services';
import { tokenFigures } from '../../../domain/distribution/claims';
import { readMember, recordPhraseSaved, storeKeystore } from '../../../domain/members/member';
import { emailTaken, refuseDisposable, registerMember } from '../../../domain/members/registration';
import { memberHolds } from '../../../domain/rewards/holds';
import { deviceClass, markAppOpened } from '../../../domain/members/sign-up-signals';
import { signupNetwork } from '../../guards/client-network';
import { accountLifecycleRoutes } from './lifecycle';
import {
  issueChallenge,
  verifyWalletProof,
  type ProofSite,
} from '../../../domain/members/wallet-proof';

function assertKeystore(keystore: string, address: string): void {
  if (keystoreProblem(keystore, address)) throw new AppError(400, 'invalid_keystore');
}

const OPENED_REMEMBERED = 100_000;

export const accountRoutes =
  (
    services: AppServices,
    limitAttempts: preHandlerAsyncHookHandler,
    gate: SignupGate,
  ): FastifyPluginAsyncZod =>
  async (app) => {
    const { sessions, database, config, memberCache, followerProgress } = services;
    const site: ProofSite = { publicUrl: config.publicUrl, chainId: services.chain.chainId };
    /** Members this process has marked as having opened the app (markAppOpened). */
    const openedHere = new Set<string>();

    app.post(
      '/wallet/challenge',
      {
        preHandler: limitAttempts,
        schema: {
          summary:
            'A single-use challenge for the wallet to sign (sign-up: anyone; save-wallet, change-password: the signed-in member)',
          body: walletChallengeRequest,
          response: {
            200: walletChallengeResponse,
            400: errorResponse,
            401: errorResponse,
            429: errorResponse,
          },
        },
      },
      async (request) => {
        const { purpose } = request.body;
        // A sign-up's challenge is a stranger's, and so is a saved phrase's (the wallet's
        // signature is its proof, and the sign-up has no session yet); the others belong to the
        // signed-in member.
        const userId =
          purpose === 'register' || purpose === 'backup-phrase'
            ? null
            : await sessions.requireUserId(request);
        return issueChallenge(database.db, site, purpose, userId);
      },
    );

    app.post(
      '/wallet/phrase-saved',
      {
        preHandler: limitAttempts,
        schema: {
          summary:
            'The member typed their recovery phrase back: the wallet it makes signed a backup-phrase challenge',
          body: phraseSavedRequest,
          response: { 200: okResponse, 400: errorResponse, 404: errorResponse, 429: errorResponse },
        },
      },
      async (request) => {
        const { address, proof } = request.body;
        await verifyWalletProof(
          database.db,
          site,
          { purpose: 'backup-phrase', userId: null },
          address,
          proof,
        );
        if (!(await recordPhraseSaved(database.db, address))) throw new AppError(404, 'not_found');
        return { ok: true as const };
      },
    );

    app.post(
      '/register',
      {
        preHandler: limitAttempts,
        schema: {
          summary: 'Create an account with its wallet',
          body: registerRequest,
          response: { 201: registerResponse, 400: errorResponse, 409: errorResponse },
        },
      },
      async (request, reply) => {
        const { wallet } = request.body;
        // The sign-up gate first: its solution is used up even if the registration then fails.
        const ticket = await gate.pass('register', request, request.body.gate);
        assertKeystore(wallet.keystore, wallet.address);
        await verifyWalletProof(
          database.db,
          site,
          { purpose: 'register', userId: null },
          wallet.address,
          wallet.proof,
        );
        const requireConfirmation = config.REQUIRE_EMAIL_CONFIRMATION;
        const userId = await registerMember(
          database.db,
          { signingKey: services.signingKey, publicUrl: config.publicUrl, requireConfirmation },
          {
            ...request.body,
            // Kept only where rewards are held: without holds no signal is ever read.
            signals:
              config.REWARD_HOLD_HOURS > 0
                ? {
                    network: signupNetwork(request.ip),
                    deviceClass: deviceClass(request.headers['user-agent'], request.body.device),
                  }
                : undefined,
          },
        );
        await gate.registered(ticket);
        services.worker.wake();
        return reply.status(201).send({ needsEmailConfirmation: requireConfirmation, userId });
      },
    );

    // The registration answers email_taken too, so this says nothing it does not; it runs under the
    // same attempt limits, per client address and per e-mail (docs/security.md).
    app.post(
      '/register/check',
      {
        preHandler: limitAttempts,
        schema: {
          summary:
            'Before the wallet is made: whether this e-mail can sign up (409 when a confirmed account has it)',
          body: registerCheckRequest,
          response: { 200: okResponse, 400: errorResponse, 409: errorResponse, 429: errorResponse },
        },
      },
      async (request) => {
        refuseDisposable(request.body.email);
        if (await emailTaken(database.db, request.body.email))
          throw new AppError(409, 'email_taken');
        return { ok: true as const };
      },
    );

    await app.register(
      memberRoutes(sessions, async (member) => {
        member.get(
          '/me',
          {
            schema: {
              summary: 'The signed-in member',
              querystring: userDetailsQuery,
              response: { 200: userDetailsResponse, 401: errorResponse },
            },
          },
          async (request) => {
            const { userId } = request.member;
            // `Cache-Control: no-cache` (the dashboard after a "changed" event) reads the database.
            const fresh = /no-cache/i.test(request.headers['cache-control'] ?? '');
            let row = fresh ? undefined : memberCache.get(userId);
            if (!row) {
              const epoch = memberCache.epoch();
              [row] = await Promise.all([
                readMember(database.db, userId),
                // Once per member and process: after that the update would change nothing, and
                // each round trip counts when every open dashboard reads at once (bench/soak.ts).
                openedHere.has(userId)
                  ? undefined
                  : markAppOpened(database.db, userId).then(() => {
                      if (openedHere.size >= OPENED_REMEMBERED) openedHere.clear();
                      openedHere.add(userId);
                    }),
              ]);
              if (!row) throw new AppError(401, 'unauthorized');
              memberCache.keep(userId, row, epoch);
            }
            const progress = await followerProgress.read();
            return {
              id: row.id,
              email: row.email,
              username: row.username,
              fullName: row.full_name,
              referralCode: row.referral_code,
              referralLink: row.referral_code ? `${config.publicUrl}/r/${row.referral_code}` : null,
              caps: {
                registration: row.signup_caps,
                referrals: row.rrp_balance,
                careActions: row.activity_caps,
                total: row.signup_caps + row.rrp_balance + row.activity_caps,
                converted: row.converted_caps,
                convertible: Math.max(0, row.activity_caps - row.converted_caps),
              },
              wallet: {
                address: row.address,
                keystore: row.encrypted_wallet,
                lockedByOldPassword: row.locked_by_old_password,
                phraseSaved: row.phrase_saved_at !== null,
              },
              tokens: tokenFigures(
                { ...row, block_number: null, synced_at: null, last_error: null, ...progress },
                config.REME_PRICE,
              ),
              firstTimeReferral: request.query.firstTimeReferral === 'true',
            };
          },
        );

        member.get(
          '/rewards/held',
          {
            schema: {
              summary: 'Credits that do not count yet: held, waiting for review, or not credited',
              response: { 200: heldRewardsResponse, 401: errorResponse },
            },
          },
          async (request) => ({ items: await memberHolds(database.db, request.member.userId) }),
        );

        member.put(
          '/wallet',
          {
            schema: {
              summary: 'Save the re-encrypted wallet (saveNewWallet)',
              body: walletPayload,
              response: {
                200: okResponse,
                400: errorResponse,
                401: errorResponse,
                409: errorResponse,
              },
            },
          },
          async (request) => {
            const { userId } = request.member;
            assertKeystore(request.body.keystore, request.body.address);
            await verifyWalletProof(
              database.db,
              site,
              { purpose: 'save-wallet', userId },
              request.body.address,
              request.body.proof,
            );
            if (!(await storeKeystore(database.db, userId, request.body)))
              throw new AppError(409, 'wallet_mismatch');
            return { ok: true as const };
          },
        );
      }),
    );

    // The account page's password change, data export and deletion.
    await app.register(accountLifecycleRoutes(services));
  };
