// The account page's password change, data export and account deletion. Changing the
// password and deleting the account ask for the member's current auth secret again, limited per
// member like sign-in (http/guards/attempt-limits.ts), so a session alone cannot do either.
import {
  accountExportFileName,
  accountExportResponse,
  changePasswordRequest,
  changePasswordResponse,
  deleteMyAccountRequest,
  errorResponse,
  keystoreProblem,
  okResponse,
} from '@crw/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../../app-error';
import { passwordCheck } from '../../guards/password-check';
import { memberRoutes } from '../../guards/member-scope';
import { hashSecret } from '../../../infra/identity/password-hash';
import type { AppServices } from '../../../services';
import {
  deleteMemberRecords,
  exportOf,
  replacePasswordAndKeystore,
} from '../../../domain/members/lifecycle';
import { verifyWalletProof, type ProofSite } from '../../../domain/members/wallet-proof';
import { recordExport, recordSecurityEvent } from '../../../domain/members/security-events';

export const accountLifecycleRoutes = (services: AppServices): FastifyPluginAsyncZod =>
  memberRoutes(services.sessions, async (app) => {
    const { database, config } = services;
    const db = database.db;
    const site: ProofSite = { publicUrl: config.publicUrl, chainId: services.chain.chainId };
    const { reauthenticate, limits } = passwordCheck(config, db);

    /** Where a request came from, for a security event's device and network. */
    const clientOf = (request: FastifyRequest) => ({
      userAgent: request.headers['user-agent'],
      address: request.ip,
    });

    /** This process forgets the ended sessions before answering; the others hear the trigger. */
    const forget = (tokens: string[]) => {
      for (const token of tokens) services.sessions.cache.forgetToken(token);
    };

    app.post(
      '/account/password',
      {
        schema: {
          summary:
            'Change the password: the new auth secret and the keystore re-encrypted with it, together; every other session ends',
          body: changePasswordRequest,
          response: {
            200: changePasswordResponse,
            400: errorResponse,
            401: errorResponse,
            403: errorResponse,
            409: errorResponse,
            429: errorResponse,
          },
        },
      },
      async (request) => {
        const { userId, token } = request.member;
        const { currentAuthSecret, newAuthSecret, wallet } = request.body;
        if (keystoreProblem(wallet.keystore, wallet.address))
          throw new AppError(400, 'invalid_keystore');
        const credential = await reauthenticate(request, userId, currentAuthSecret);
        // scrypt runs before the transaction, so no connection (PGlite's only one) waits on it.
        const newHash = await hashSecret(newAuthSecret);
        const ended = await db.transaction().execute(async (trx) => {
          await verifyWalletProof(
            trx,
            site,
            { purpose: 'change-password', userId },
            wallet.address,
            wallet.proof,
          );
          const ended = await replacePasswordAndKeystore(trx, {
            userId,
            keepToken: token,
            credential,
            newHash,
            wallet,
          });
          // The member is told (the activity and a mail) in the change's own transaction.
          await recordSecurityEvent(
            trx,
            config.publicUrl,
            userId,
            'password_changed',
            clientOf(request),
          );
          return ended;
        });
        forget(ended);
        services.worker.wake();
        request.log.info({ userId, otherSessionsEnded: ended.length }, 'password changed');
        return { ok: true as const, otherSessionsEnded: ended.length };
      },
    );

    app.get(
      '/account/export',
      {
        schema: {
          summary: "Download the member's data (JSON attachment)",
          response: { 200: accountExportResponse, 401: errorResponse },
        },
      },
      async (request, reply) => {
        const { userId } = request.member;
        const now = new Date();
        const body = await exportOf(db, userId, now);
        if (!body) throw new AppError(401, 'unauthorized');
        // A download the member did not make is something they must hear of.
        if (await recordExport(db, config.publicUrl, userId, clientOf(request)))
          services.worker.wake();
        reply.header('content-disposition', `attachment; filename="${accountExportFileName(now)}"`);
        reply.header('cache-control', 'no-store');
        return body;
      },
    );

    app.delete(
      '/account',
      {
        schema: {
          summary:
            "Delete the member's account (delete_current_user) after asking for the current auth secret; every session ends",
          body: deleteMyAccountRequest,
          response: {
            200: okResponse,
            400: errorResponse,
            401: errorResponse,
            403: errorResponse,
            409: errorResponse,
            429: errorResponse,
          },
        },
      },
      async (request, reply) => {
        const { userId } = request.member;
        await reauthenticate(request, userId, request.body.authSecret);
        const ended = await db.transaction().execute((trx) => deleteMemberRecords(trx, userId));
        forget(ended);
        await limits.settle(userId, 'succeeded');
        // The browser drops its cookie now; the session behind it is already gone.
        const { authCookies } = await services.auth.$context;
        const { name, attributes } = authCookies.sessionToken;
        reply.header(
          'set-cookie',
          `${name}=; Max-Age=0; Path=${attributes.path ?? '/'}; HttpOnly; SameSite=Lax${attributes.secure ? '; Secure' : ''}`,
        );
        request.log.info({ userId, sessionsEnded: ended.length }, 'account deleted by its member');
        return { ok: true as const };
      },
    );
  });
