// Mounts better-auth's handler at /auth/* inside Fastify, limits the attempt endpoints (see
// attempt-limits.ts), and turns better-auth's errors into our { code, message } bodies.
import {
  errorBody,
  errorMessages,
  requestPasswordResetRequest,
  resetLinkParams,
  resetLinkQuery,
  resetPasswordRequest,
  sendVerificationEmailRequest,
  signInRequest,
  verifyEmailQuery,
  type ErrorCode,
} from '@crw/core';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Config } from '../config';
import { AppError } from '../app-error';
import { JWKS_PATH, type Auth } from './auth';

const authErrors: Record<string, ErrorCode> = {
  INVALID_EMAIL_OR_PASSWORD: 'invalid_credentials',
  INVALID_PASSWORD: 'invalid_credentials',
  EMAIL_NOT_VERIFIED: 'email_not_confirmed',
  INVALID_TOKEN: 'invalid_token',
  TOKEN_EXPIRED: 'invalid_token',
};

/** Calls where each one is an attempt worth limiting, with the shapes let through to better-auth. */
const LIMITED_AUTH_ROUTES = [
  { url: '/auth/sign-in/email', schema: { body: signInRequest } },
  { url: '/auth/request-password-reset', schema: { body: requestPasswordResetRequest } },
  { url: '/auth/send-verification-email', schema: { body: sendVerificationEmailRequest } },
  { url: '/auth/reset-password', schema: { body: resetPasswordRequest } },
];

async function forward(auth: Auth, config: Config, request: FastifyRequest, reply: FastifyReply) {
  const url = new URL(request.url, config.publicUrl);
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === 'content-length') continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body !== undefined;
  const response = await auth.handler(new Request(url, { method: request.method, headers, ...(hasBody ? { body: JSON.stringify(request.body) } : {}) }));

  reply.status(response.status);
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie' && name !== 'content-length' && name !== 'content-encoding') reply.header(name, value);
  });
  for (const cookie of response.headers.getSetCookie()) reply.header('set-cookie', cookie);
  const text = await response.text();
  if (response.status >= 400) {
    let code: string | undefined;
    try {
      code = (JSON.parse(text) as { code?: string }).code;
    } catch {
      code = undefined;
    }
    const mapped: ErrorCode = (code && authErrors[code]) || (response.status === 401 ? 'unauthorized' : response.status === 404 ? 'not_found' : 'auth_failed');
    request.log.info({ status: response.status, authCode: code }, 'auth request refused');
    return reply.type('application/json').send(errorBody(mapped, errorMessages[mapped]));
  }
  return reply.send(text.length > 0 ? text : null);
}

/** The rest of better-auth that the product uses; every other endpoint it has answers 404. */
const OPEN_AUTH_ROUTES = [
  { method: 'POST', url: '/auth/sign-out', schema: {} },
  { method: 'GET', url: '/auth/verify-email', schema: { querystring: verifyEmailQuery } }, // the confirmation mail's link
  { method: 'GET', url: '/auth/reset-password/:token', schema: { params: resetLinkParams, querystring: resetLinkQuery } }, // the reset mail's link
  { method: 'GET', url: `/auth${JWKS_PATH}`, schema: {} }, // the keys the sister app verifies hand-off JWTs with
] as const;

export async function registerAuthRoutes(app: FastifyInstance, auth: Auth, config: Config, limits: preHandlerAsyncHookHandler): Promise<void> {
  for (const route of LIMITED_AUTH_ROUTES) {
    app.post(route.url, { preHandler: limits, schema: { hide: true, ...route.schema } }, (request, reply) => forward(auth, config, request, reply));
  }
  for (const route of OPEN_AUTH_ROUTES) {
    app.route({ method: route.method, url: route.url, schema: { hide: true, ...route.schema }, handler: (request, reply) => forward(auth, config, request, reply) });
  }
  // Unlisted better-auth endpoints (change-password, list-sessions, verify-password, token, …) do
  // not exist here, so none of them can be reached around our limits and checks.
  app.all('/auth/*', { schema: { hide: true } }, async () => {
    throw new AppError(404, 'not_found');
  });
}
