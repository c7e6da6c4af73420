// Attempt limits for sign-in, sign-up, reset, resend and hand-off redeem: per IP, per e-mail from
// that IP, and per e-mail from all addresses (a higher ceiling), per endpoint, counted in the
// database so every server process enforces one limit. Sign-in holds an attempt until its outcome
// is known: only refusals stay counted per e-mail (decision 0010). Also the password asked again of
// a signed-in member, and the second factor's lock for every code, at sign-in or not.
import { createHash } from 'node:crypto';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../../app-error';
import type { Config } from '../../config';
import type { DB } from '../../infra/db/schema';
import { TWO_FACTOR_LOCKOUT } from '../../infra/identity/auth';
import { clientNetwork, signupNetwork } from './client-network';

/** How a sign-in ended: refused (wrong credentials), succeeded, or neither (e.g. not confirmed). */
export type SignInOutcome = 'refused' | 'succeeded' | 'undecided';

export interface AttemptLimits {
  /** preHandler: counts the request per IP and per e-mail, or answers 429. */
  check: preHandlerAsyncHookHandler;
  /** After a checked sign-in: a refusal stays counted, a success clears the e-mail's count, and
   * anything else gives the attempt back. */
  settleSignIn(request: FastifyRequest, outcome: SignInOutcome): Promise<void>;
  /** The second factor's lock, for codes a signed-in member sends. */
  twoFactor: TwoFactorLock;
}

/** The library's PostgreSQL store speaks to a pg-style client (query({ text, values }) → { rows,
 * rowCount }); this one runs its statements through our Kysely, so on PGlite and PostgreSQL alike. */
export function storeClient(db: Kysely<DB>) {
  return {
    async query({ text, values = [] }: { text: string; values?: unknown[] }) {
      const result = await db.executeQuery(CompiledQuery.raw(text, values));
      // Drivers report affected rows for writes only; a SELECT's count is its rows.
      return {
        rows: result.rows,
        rowCount: Math.max(result.rows.length, Number(result.numAffectedRows ?? 0)),
      };
    },
  };
}

function retryText(ms: number): string {
  const minutes = Math.ceil(ms / 60_000);
  if (ms < 60_000) return `${Math.max(1, Math.ceil(ms / 1000))} seconds`;
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

function emailOf(request: FastifyRequest): string {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : '';
}

const routeOf = (request: FastifyRequest) => request.routeOptions.url ?? request.url;
/** Keyed by a hash, so the table holds no e-mail addresses. */
const emailKey = (request: FastifyRequest, email: string) =>
  `${routeOf(request)}:${createHash('sha256').update(email).digest('base64url')}`;
/** The same e-mail from one client (clientNetwork): where the configured per-e-mail limit applies. */
const emailFromClientKey = (request: FastifyRequest, email: string, client: string) =>
  `${emailKey(request, email)}:${client}`;

/**
 * Against every client address together an e-mail gets this many times the per-e-mail limit: a
 * stranger's failures from one address lock out only that address, while guessing spread over
 * many addresses still meets a ceiling (docs/security.md).
 */
export const ALL_ADDRESSES_FACTOR = 10;

/**
 * Sign-ups from one wider network (an IPv4 /24, an IPv6 /48) together get this many times the
 * per-client allowance: a script rotating through a network's addresses or /64s meets one ceiling,
 * while a care home's few members behind one router never do (docs/security.md#limits-proxies-files-logs).
 */
export const SIGNUP_NETWORK_FACTOR = 3;
const SIGN_UP_ROUTE = '/api/register';

/** Counters in the attempt_limits table, each over the configured window. */
function limiters(config: Config, db: Kysely<DB>) {
  const store = {
    storeClient: storeClient(db),
    storeType: 'client',
    tableName: 'attempt_limits',
    tableCreated: true,
  };
  const duration = config.AUTH_RATE_LIMIT_WINDOW_MINUTES * 60;
  return (keyPrefix: string, points: number) =>
    new RateLimiterPostgres({ ...store, keyPrefix, points, duration });
}

export function attemptLimits(config: Config, db: Kysely<DB>): AttemptLimits {
  const limiter = limiters(config, db);
  const perIp = limiter('ip', config.AUTH_RATE_LIMIT_PER_IP);
  const perEmail = limiter('email', config.AUTH_RATE_LIMIT_PER_EMAIL);
  const perEmailEverywhere = limiter(
    'email-all',
    config.AUTH_RATE_LIMIT_PER_EMAIL * ALL_ADDRESSES_FACTOR,
  );
  const perSignupNetwork = limiter(
    'signup-network',
    config.AUTH_RATE_LIMIT_PER_IP * SIGNUP_NETWORK_FACTOR,
  );

  return {
    twoFactor: twoFactorLock(db),
    check: async (request) => {
      const email = emailOf(request);
      const client = clientNetwork(request.ip);
      try {
        await perIp.consume(`${routeOf(request)}:${client}`);
        if (routeOf(request) === SIGN_UP_ROUTE)
          await perSignupNetwork.consume(signupNetwork(request.ip));
        if (email) {
          await perEmail.consume(emailFromClientKey(request, email, client));
          await perEmailEverywhere.consume(emailKey(request, email));
        }
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        request.log.warn(
          { route: routeOf(request), email: email || undefined },
          'attempt limit reached',
        );
        throw new AppError(
          429,
          'rate_limited',
          `Too many attempts. Please try again in ${retryText(rejection.msBeforeNext)}.`,
        );
      }
    },
    settleSignIn: async (request, outcome) => {
      const email = emailOf(request);
      if (!email || outcome === 'refused') return;
      const [here, everywhere] = [
        emailFromClientKey(request, email, clientNetwork(request.ip)),
        emailKey(request, email),
      ];
      if (outcome === 'succeeded')
        await Promise.all([perEmail.delete(here), perEmailEverywhere.delete(everywhere)]);
      else await Promise.all([perEmail.reward(here), perEmailEverywhere.reward(everywhere)]);
    },
  };
}

/** Re-authentication by a signed-in member (changing the password, deleting the account). */
export interface ReauthLimits {
  /** Holds one of the member's allowed attempts (and counts one for the client address), or 429. */
  hold(request: FastifyRequest, userId: string): Promise<void>;
  /** As sign-in settles: a refusal stays counted, a success clears the member's count, anything
   * else gives the attempt back. */
  settle(userId: string, outcome: SignInOutcome): Promise<void>;
}

/**
 * Whoever holds a member's session (a shared computer, a stolen cookie) must not be able to guess
 * the password through the routes that ask for it again. Those routes share one count per member
 * (AUTH_RATE_LIMIT_PER_EMAIL failures per window, the sign-in allowance), held while the secret is
 * checked as sign-in does (decision 0010), so a burst of guesses cannot all pass; the client's
 * address is counted per request as for every limited route.
 */
export function reauthenticationLimits(config: Config, db: Kysely<DB>): ReauthLimits {
  const limiter = limiters(config, db);
  const perIp = limiter('reauth-ip', config.AUTH_RATE_LIMIT_PER_IP);
  const perMember = limiter('reauth-member', config.AUTH_RATE_LIMIT_PER_EMAIL);
  return {
    hold: async (request, userId) => {
      try {
        await perIp.consume(clientNetwork(request.ip));
        await perMember.consume(userId);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        request.log.warn({ route: routeOf(request), userId }, 'attempt limit reached');
        throw new AppError(
          429,
          'rate_limited',
          `Too many attempts. Please try again in ${retryText(rejection.msBeforeNext)}.`,
        );
      }
    },
    settle: async (userId, outcome) => {
      if (outcome === 'succeeded') await perMember.delete(userId);
      else if (outcome === 'undecided') await perMember.reward(userId);
    },
  };
}

/** The second factor's lock for the codes a signed-in member sends (turning two-factor off,
 * finishing enrolment, a code checked with a session), which better-auth checks without it. */
export interface TwoFactorLock {
  /** Holds one of the member's allowed wrong codes, or 429 two_factor_locked. False when the
   * member has no second factor to lock (better-auth then refuses the code). */
  hold(userId: string): Promise<boolean>;
  /** A wrong code stays counted (the last allowed one locks), a right one clears the count, and
   * anything else gives the attempt back. */
  settle(userId: string, outcome: SignInOutcome): Promise<void>;
}

/**
 * One count per member, on better-auth's own row ("twoFactor": failedVerificationCount,
 * lockedUntil), so codes at sign-in and codes from a session add up to one lock, which both paths
 * honour in every process. The attempt is counted before the code is checked (as sign-in holds
 * its attempt, decision 0010): a burst of guesses at once cannot check more codes than the limit.
 */
function twoFactorLock(db: Kysely<DB>): TwoFactorLock {
  const { maxFailedAttempts: max, durationSeconds } = TWO_FACTOR_LOCKOUT;
  return {
    hold: async (userId) => {
      // A lock whose window ended starts the count again, as better-auth does at sign-in.
      const held = await sql`
        UPDATE "twoFactor"
           SET "failedVerificationCount" = CASE WHEN "lockedUntil" <= now() THEN 1
                                                ELSE coalesce("failedVerificationCount", 0) + 1 END,
               "lockedUntil" = CASE WHEN "lockedUntil" <= now() THEN NULL ELSE "lockedUntil" END
         WHERE "userId" = ${userId}
           AND ("lockedUntil" <= now()
                OR ("lockedUntil" IS NULL AND coalesce("failedVerificationCount", 0) < ${max}))
        RETURNING id`.execute(db);
      if (held.rows.length > 0) return true;
      const exists = await sql`SELECT 1 FROM "twoFactor" WHERE "userId" = ${userId}`.execute(db);
      if (exists.rows.length === 0) return false;
      throw new AppError(429, 'two_factor_locked');
    },
    settle: async (userId, outcome) => {
      if (outcome === 'succeeded')
        await sql`
          UPDATE "twoFactor" SET "failedVerificationCount" = 0, "lockedUntil" = NULL
           WHERE "userId" = ${userId}`.execute(db);
      else if (outcome === 'refused')
        await sql`
          UPDATE "twoFactor"
             SET "lockedUntil" = now() + ${durationSeconds}::int * interval '1 second'
           WHERE "userId" = ${userId} AND "lockedUntil" IS NULL
             AND "failedVerificationCount" >= ${max}`.execute(db);
      else
        await sql`
          UPDATE "twoFactor"
             SET "failedVerificationCount" = greatest(coalesce("failedVerificationCount", 0) - 1, 0)
           WHERE "userId" = ${userId}`.execute(db);
    },
  };
}
