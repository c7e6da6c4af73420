// The sign-up gate's challenge (docs/security.md#the-sign-up-gate): anyone may ask for one, for the
// registration, the confirmation mail's resend or the password reset request. Issuing one writes
// nothing (the challenge is signed and the browser holds it) and costs one PBKDF2 derivation; each
// client address gets the attempt limit's number per window.
import { errorResponse, gateChallenge, gateChallengeQuery } from '@crw/core';
import type { preHandlerAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SignupGate } from '../../guards/signup-gate';

export const signupGateRoutes =
  (gate: SignupGate, limitAttempts: preHandlerAsyncHookHandler): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/signup-gate/challenge',
      {
        preHandler: limitAttempts,
        schema: {
          summary:
            'A proof-of-work challenge for a sign-up, resend or reset form (public; limited per client address)',
          querystring: gateChallengeQuery,
          response: { 200: gateChallenge, 400: errorResponse, 429: errorResponse },
        },
      },
      async (request) => gate.challenge(request.query.form, request),
    );
  };
