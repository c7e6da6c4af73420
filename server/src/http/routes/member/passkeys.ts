// Passkeys on the account page (decision 0026): add one (after the password), name it, remove it
// (with the password), and the wrapped copies of the wallet's key the browser made for them. The
// sign-in's options are here too (anyone may ask, limited per address); the sign-in itself is
// better-auth's endpoint behind /auth (http/routes/auth-proxy.ts). Queries: domain/members/passkeys.ts.
import {
  addPasskeyOptionsRequest,
  addPasskeyRequest,
  errorResponse,
  okResponse,
  passkeyCeremony,
  passkeyIdParams,
  passkeyItem,
  passkeysResponse,
  removePasskeyRequest,
  renamePasskeyRequest,
  walletKeysResponse,
  wrappedWalletKey,
} from '@crw/core';
import type { preHandlerAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../../app-error';
import type { AppServices } from '../../../services';
import { memberRoutes } from '../../guards/member-scope';
import { passwordCheck } from '../../guards/password-check';
import {
  addPasskey,
  listPasskeys,
  passkeyParty,
  registrationOptions,
  removePasskey,
  renamePasskey,
  signInOptions,
  storeWalletKey,
  walletKeysOf,
} from '../../../domain/members/passkeys';

const refusals = { 400: errorResponse, 401: errorResponse, 404: errorResponse, 429: errorResponse };

/** POST /api/passkeys/sign-in/options: a single-use challenge for a passkey sign-in. */
export const passkeySignInRoutes =
  (services: AppServices, limitAttempts: preHandlerAsyncHookHandler): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/sign-in/options',
      {
        preHandler: limitAttempts,
        schema: {
          summary: 'A single-use challenge for signing in with a passkey (five minutes)',
          response: { 200: passkeyCeremony, 429: errorResponse },
        },
      },
      async (request) =>
        signInOptions(services.database.db, passkeyParty(services.config, request.headers.origin)),
    );
  };

export const passkeyRoutes = (services: AppServices): FastifyPluginAsyncZod =>
  memberRoutes(services.sessions, async (app) => {
    const { database, config } = services;
    const db = database.db;
    const { reauthenticate } = passwordCheck(config, db);

    app.get(
      '/',
      {
        schema: {
          summary: "The member's passkeys",
          response: { 200: passkeysResponse, 401: errorResponse },
        },
      },
      async (request) => ({ passkeys: await listPasskeys(db, request.member.userId) }),
    );

    app.post(
      '/options',
      {
        schema: {
          summary: 'Options for adding a passkey, after the password again',
          body: addPasskeyOptionsRequest,
          response: { 200: passkeyCeremony, 403: errorResponse, 409: errorResponse, ...refusals },
        },
      },
      async (request) => {
        const { userId } = request.member;
        await reauthenticate(request, userId, request.body.authSecret);
        return registrationOptions(db, passkeyParty(config, request.headers.origin), userId);
      },
    );

    app.post(
      '/',
      {
        schema: {
          summary: 'Keep the passkey the browser made for the options (a security mail follows)',
          body: addPasskeyRequest,
          response: { 201: passkeyItem, 409: errorResponse, ...refusals },
        },
      },
      async (request, reply) => {
        const { challengeId, response } = request.body;
        const item = await addPasskey(
          db,
          passkeyParty(config, request.headers.origin),
          config.publicUrl,
          request.member.userId,
          challengeId,
          response,
          { userAgent: request.headers['user-agent'], address: request.ip },
        );
        services.worker.wake();
        return reply.status(201).send(item);
      },
    );

    app.patch(
      '/:id',
      {
        schema: {
          summary: 'Rename one of the member’s passkeys',
          params: passkeyIdParams,
          body: renamePasskeyRequest,
          response: { 200: okResponse, ...refusals },
        },
      },
      async (request) => {
        if (!(await renamePasskey(db, request.member.userId, request.params.id, request.body.name)))
          throw new AppError(404, 'not_found');
        return { ok: true as const };
      },
    );

    app.delete(
      '/:id',
      {
        schema: {
          summary:
            'Remove one of the member’s passkeys and its wrapped wallet key, after the password',
          params: passkeyIdParams,
          body: removePasskeyRequest,
          response: { 200: okResponse, 403: errorResponse, ...refusals },
        },
      },
      async (request) => {
        const { userId } = request.member;
        await reauthenticate(request, userId, request.body.authSecret);
        if (!(await removePasskey(db, userId, request.params.id)))
          throw new AppError(404, 'not_found');
        return { ok: true as const };
      },
    );

    app.put(
      '/:id/wallet-key',
      {
        schema: {
          summary:
            'Keep the wallet key the browser wrapped for this passkey (the server cannot open it)',
          params: passkeyIdParams,
          body: wrappedWalletKey,
          response: { 200: okResponse, ...refusals },
        },
      },
      async (request) => {
        if (!(await storeWalletKey(db, request.member.userId, request.params.id, request.body)))
          throw new AppError(404, 'not_found');
        return { ok: true as const };
      },
    );

    app.get(
      '/wallet-keys',
      {
        schema: {
          summary: "The member's wrapped wallet keys, for their browser to open with a passkey",
          response: { 200: walletKeysResponse, 401: errorResponse },
        },
      },
      async (request) => ({ keys: await walletKeysOf(db, request.member.userId) }),
    );
  });
