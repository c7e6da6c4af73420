// Mounts the better-auth endpoints the app uses at /auth (every other one answers 404), checks
// their input with our schemas, limits the attempt endpoints (see attempt-limits.ts), and turns
// better-auth's errors into our { code, message } bodies.
import {
  errorBody,
  errorMessages,
  requestPasswordResetRequest,
  resetLinkParams,
  resetLinkQuery,
  resetPasswordRequest,
  sendVerificationEmailRequest,
  passkeySignInRequest,
  signInRequest,
  twoFactorDisableRequest,
  twoFactorEnableRequest,
  verifyBackupCodeRequest,
  verifyEmailQuery,
  verifyTotpRequest,
  TOTP_CODE_PATTERN,
  type ErrorCode,
  type GateForm,
} from '@crw/core';
import { APIError } from 'better-auth/api';
import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import { AppError } from '../../app-error';
import type {
  AttemptLimits,
  ReauthLimits,
  SignInOutcome,
  TwoFactorLock,
} from '../guards/attempt-limits';
import { JWKS_PATH, type Auth } from '../../infra/identity/auth';
import { PASSKEY_REFUSALS, PASSKEY_SIGN_IN_PATH } from '../../infra/identity/passkey-sign-in';
import type { SignupGate } from '../guards/signup-gate';

const authErrors: Record<string, ErrorCode> = {
  INVALID_EMAIL_OR_PASSWORD: 'invalid_credentials',
  INVALID_PASSWORD: 'invalid_credentials',
  EMAIL_NOT_VERIFIED: 'email_not_confirmed',
  INVALID_TOKEN: 'invalid_token',
  TOKEN_EXPIRED: 'invalid_token',
  INVALID_CODE: 'invalid_two_factor_code',
  INVALID_BACKUP_CODE: 'invalid_two_factor_code',
  INVALID_TWO_FACTOR_COOKIE: 'two_factor_expired',
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: 'two_factor_expired',
  ACCOUNT_TEMPORARILY_LOCKED: 'two_factor_locked',
  [PASSKEY_REFUSALS.failed]: 'passkey_failed',
  [PASSKEY_REFUSALS.expired]: 'passkey_expired',
};

/** Calls where each one is an attempt worth limiting (sign-in is limited by its outcome too),
 * with the shapes let through to better-auth. A reset request and a resend, which mail anyone's
 * address, also pass the sign-up gate (signup-gate.ts) for their form. */
const LIMITED_AUTH_ROUTES: Array<{
  url: string;
  schema: { body: unknown };
  gate?: GateForm;
}> = [
  {
    url: '/auth/request-password-reset',
    schema: { body: requestPasswordResetRequest },
    gate: 'reset',
  },
  {
    url: '/auth/send-verification-email',
    schema: { body: sendVerificationEmailRequest },
    gate: 'resend',
  },
  { url: '/auth/reset-password', schema: { body: resetPasswordRequest } },
];

/** The body without the gate's solution, which better-auth does not know. */
function withoutGate(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) return body;
  const { gate: _gate, ...rest } = body as Record<string, unknown>;
  return rest;
}

/** Two-factor codes: each one (at sign-in or from a session) and each password check is an
 * attempt. better-auth adds its own at sign-in: 5 codes per sign-in, 10 wrong in a row lock the
 * account (auth.ts); codes from a session count toward that lock here (`checkedCode`). */
const CODE_ROUTES = [
  { url: '/auth/two-factor/verify-totp', schema: { body: verifyTotpRequest } },
  { url: '/auth/two-factor/verify-backup-code', schema: { body: verifyBackupCodeRequest } },
];

/** The rest of better-auth that the product uses. */
const OPEN_AUTH_ROUTES = [
  { method: 'POST', url: '/auth/sign-out', schema: {} },
  { method: 'GET', url: '/auth/verify-email', schema: { querystring: verifyEmailQuery } }, // the confirmation mail's link
  {
    method: 'GET',
    url: '/auth/reset-password/:token',
    schema: { params: resetLinkParams, querystring: resetLinkQuery },
  }, // the reset mail's link
  { method: 'GET', url: `/auth${JWKS_PATH}`, schema: {} }, // the keys the sister app verifies hand-off JWTs with
] as const;

interface AuthAnswer {
  response: Response;
  text: string;
  /** Our code for a refusal (status >= 400). */
  error?: ErrorCode;
  authCode?: string;
}

async function callAuth(
  auth: Auth,
  config: Config,
  request: FastifyRequest,
  body: unknown = request.body,
): Promise<AuthAnswer> {
  const url = new URL(request.url, config.publicUrl);
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === 'content-length') continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && body !== undefined;
  const response = await auth.handler(
    new Request(url, {
      method: request.method,
      headers,
      ...(hasBody ? { body: JSON.stringify(body) } : {}),
    }),
  );
  const text = await response.text();
  if (response.status < 400) return { response, text };
  let authCode: string | undefined;
  try {
    authCode = (JSON.parse(text) as { code?: string }).code;
  } catch {
    authCode = undefined;
  }
  const error: ErrorCode =
    (authCode && authErrors[authCode]) ||
    (response.status === 401
      ? 'unauthorized'
      : response.status === 404
        ? 'not_found'
        : 'auth_failed');
  return { response, text, error, authCode };
}

function send(
  request: FastifyRequest,
  reply: FastifyReply,
  { response, text, error, authCode }: AuthAnswer,
) {
  reply.status(response.status);
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie' && name !== 'content-length' && name !== 'content-encoding')
      reply.header(name, value);
  });
  for (const cookie of response.headers.getSetCookie()) reply.header('set-cookie', cookie);
  if (error) {
    request.log.info({ status: response.status, authCode }, 'auth request refused');
    return reply.type('application/json').send(errorBody(error, errorMessages[error]));
  }
  return reply.send(text.length > 0 ? text : null);
}

async function forward(auth: Auth, config: Config, request: FastifyRequest, reply: FastifyReply) {
  return send(request, reply, await callAuth(auth, config, request));
}

/** The signed-in member asking, or null. */
async function signedInUserId(auth: Auth, request: FastifyRequest): Promise<string | null> {
  const session = await auth.api.getSession({ headers: fromNodeHeaders(request.headers) });
  return session?.user.id ?? null;
}

/** The signed-in member asking, or 401 (better-auth would take a pending sign-in's code as its own). */
async function sessionUserId(auth: Auth, request: FastifyRequest): Promise<string> {
  const userId = await signedInUserId(auth, request);
  if (!userId) throw new AppError(401, 'unauthorized');
  return userId;
}

/** How a code check ended: a wrong code is a refusal; anything but a right one or a wrong one
 * (a lost session, a database outage) decides nothing. */
function codeOutcome(ok: boolean, error: ErrorCode | undefined): SignInOutcome {
  if (ok) return 'succeeded';
  return error === 'invalid_two_factor_code' ? 'refused' : 'undecided';
}

/** A code a signed-in member sends is checked under the second factor's lock (attempt-limits.ts):
 * better-auth locks only the codes of a sign-in, so a session alone (a shared computer, a stolen
 * cookie) could otherwise guess codes without end. */
async function lockedCodeCheck<T>(
  lock: TwoFactorLock,
  userId: string,
  check: () => Promise<T>,
  outcomeOf: (result: T) => SignInOutcome,
): Promise<T> {
  const held = await lock.hold(userId);
  let outcome: SignInOutcome = 'undecided';
  try {
    const result = await check();
    outcome = outcomeOf(result);
    return result;
  } catch (error) {
    outcome = codeOutcome(false, error instanceof AppError ? error.code : undefined);
    throw error;
  } finally {
    if (held) await lock.settle(userId, outcome);
  }
}

/** A code at sign-in (better-auth counts it) or from a session (counted here). */
async function checkedCode(
  auth: Auth,
  config: Config,
  lock: TwoFactorLock,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const userId = await signedInUserId(auth, request);
  if (!userId) return forward(auth, config, request, reply);
  const answer = await lockedCodeCheck(
    lock,
    userId,
    () => callAuth(auth, config, request),
    (a) => codeOutcome(a.response.ok, a.error),
  );
  return send(request, reply, answer);
}

/** Checks a code (authenticator or backup) of the signed-in member, or throws our error. */
async function verifyCode(auth: Auth, request: FastifyRequest, code: string): Promise<void> {
  const call = { headers: fromNodeHeaders(request.headers), body: { code } };
  try {
    await (TOTP_CODE_PATTERN.test(code)
      ? auth.api.verifyTOTP(call)
      : auth.api.verifyBackupCode(call));
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
    const authCode = (error.body as { code?: string } | undefined)?.code;
    const ours =
      (authCode && authErrors[authCode]) ||
      (error.statusCode === 401 ? 'unauthorized' : 'invalid_two_factor_code');
    request.log.info({ status: error.statusCode, authCode }, 'two-factor code refused');
    throw new AppError(error.statusCode === 429 ? 429 : ours === 'unauthorized' ? 401 : 400, ours);
  }
}

/** Routes that ask a signed-in member for the password again share the per-member count of the
 * password change and account deletion (attempt-limits.ts): a stolen session cannot guess it. */
async function reauthenticated(
  reauth: ReauthLimits,
  request: FastifyRequest,
  userId: string,
  call: () => Promise<AuthAnswer>,
): Promise<AuthAnswer> {
  await reauth.hold(request, userId);
  let outcome: SignInOutcome = 'undecided';
  try {
    const answer = await call();
    outcome = answer.response.ok
      ? 'succeeded'
      : answer.error === 'invalid_credentials'
        ? 'refused'
        : 'undecided';
    return answer;
  } finally {
    await reauth.settle(userId, outcome);
  }
}

/** Turning two-factor sign-in off takes the password and a code (authenticator or backup): a
 * session left open somewhere cannot turn it off with the password alone, nor with a code alone. */
async function disableTwoFactor(
  auth: Auth,
  config: Config,
  limits: AttemptLimits,
  reauth: ReauthLimits,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const { code, password } = request.body as { code: string; password: string };
  const userId = await sessionUserId(auth, request);
  await lockedCodeCheck(
    limits.twoFactor,
    userId,
    () => verifyCode(auth, request, code),
    () => 'succeeded',
  );
  return send(
    request,
    reply,
    await reauthenticated(reauth, request, userId, () =>
      callAuth(auth, config, request, { password }),
    ),
  );
}

/** Sign-in settles its attempt by the outcome: only wrong credentials stay counted per e-mail. */
async function signIn(
  auth: Auth,
  config: Config,
  limits: AttemptLimits,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  let answer: AuthAnswer;
  try {
    answer = await callAuth(auth, config, request);
  } catch (error) {
    await limits.settleSignIn(request, 'undecided');
    throw error;
  }
  await limits.settleSignIn(
    request,
    answer.response.ok
      ? 'succeeded'
      : answer.error === 'invalid_credentials'
        ? 'refused'
        : 'undecided',
  );
  return send(request, reply, answer);
}

export const authRoutes =
  (
    auth: Auth,
    config: Config,
    limits: AttemptLimits,
    reauth: ReauthLimits,
    gate: SignupGate,
  ): FastifyPluginAsync =>
  async (app) => {
    app.post(
      '/auth/sign-in/email',
      { preHandler: limits.check, schema: { hide: true, body: signInRequest } },
      (request, reply) => signIn(auth, config, limits, request, reply),
    );
    // A passkey's answer: limited per address as sign-in is (no e-mail is typed); the challenge it
    // signed is single-use, so a replayed answer is refused (domain/members/passkeys.ts).
    app.post(
      `/auth${PASSKEY_SIGN_IN_PATH}`,
      { preHandler: limits.check, schema: { hide: true, body: passkeySignInRequest } },
      (request, reply) => forward(auth, config, request, reply),
    );
    for (const route of LIMITED_AUTH_ROUTES) {
      const form = route.gate;
      app.post(
        route.url,
        {
          preHandler: form ? [limits.check, gate.guard(form)] : limits.check,
          schema: { hide: true, ...route.schema },
        },
        async (request, reply) =>
          send(request, reply, await callAuth(auth, config, request, withoutGate(request.body))),
      );
    }
    for (const route of CODE_ROUTES) {
      app.post(
        route.url,
        { preHandler: limits.check, schema: { hide: true, ...route.schema } },
        (request, reply) => checkedCode(auth, config, limits.twoFactor, request, reply),
      );
    }
    app.post(
      '/auth/two-factor/enable',
      { preHandler: limits.check, schema: { hide: true, body: twoFactorEnableRequest } },
      async (request, reply) => {
        const userId = await sessionUserId(auth, request);
        return send(
          request,
          reply,
          await reauthenticated(reauth, request, userId, () => callAuth(auth, config, request)),
        );
      },
    );
    app.post(
      '/auth/two-factor/disable',
      { preHandler: limits.check, schema: { hide: true, body: twoFactorDisableRequest } },
      (request, reply) => disableTwoFactor(auth, config, limits, reauth, request, reply),
    );
    for (const route of OPEN_AUTH_ROUTES) {
      app.route({
        method: route.method,
        url: route.url,
        schema: { hide: true, ...route.schema },
        handler: (request, reply) => forward(auth, config, request, reply),
      });
    }
    // Unlisted better-auth endpoints (change-password, list-sessions, verify-password, token, …) do
    // not exist here, so none of them can be reached around our limits and checks.
    app.all('/auth/*', { schema: { hide: true } }, async () => {
      throw new AppError(404, 'not_found');
    });
  };
