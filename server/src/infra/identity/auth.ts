// better-auth behind /auth: sessions (httpOnly cookies), sign-in, e-mail verification, password
// reset. Sign-up is ours (/api/register), because the account, profile, wallet and first mail
// must be written in one transaction. The "password" better-auth sees is the derived auth secret.
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { betterAuth } from 'better-auth';
import { createAuthMiddleware } from 'better-auth/api';
import { jwt } from 'better-auth/plugins/jwt';
import { twoFactor } from 'better-auth/plugins/two-factor';
import { getMigrations } from 'better-auth/db/migration';
import { AUTH_SECRET_PATTERN, BACKUP_CODE_ALPHABET, BACKUP_CODE_LENGTH } from '@crw/core';
import type { Log } from '../../logging';
import type { Config } from '../../config';
import type { Database } from '../db/database';
import { enqueueMail, type NewMail } from '../mail/outbox';
import { isDatabaseUnavailable } from '../db/unavailable';
import { confirmationMail, passwordResetMail } from '../mail/templates';
import { hashSecret, verifySecret } from './password-hash';
import { passkeySignIn, type PasskeyVerdict } from './passkey-sign-in';

export const AUTH_BASE_PATH = '/auth';
export const CONFIRMED_CALLBACK = '/?confirmed=true';
export const EMAIL_TOKEN_EXPIRES_IN_S = 24 * 60 * 60;
export const RESET_TOKEN_EXPIRES_IN_S = 60 * 60;

export function trustedOrigins(config: Config): string[] {
  const origins = [new URL(config.publicUrl).origin];
  if (!config.isProduction)
    origins.push(
      'http://localhost:5173',
      `http://127.0.0.1:${config.PORT}`,
      `http://localhost:${config.PORT}`,
    );
  return [...new Set(origins)];
}

/** The header better-auth reads a new session's client address from; the HTTP layer writes it
 * from the address it trusts (http/guards/client-address.ts). */
export const TRUSTED_ADDRESS_HEADER = 'x-crw-trusted-address';

/** Wrong second-factor codes in a row that lock the factor, and for how long: better-auth's lock,
 * which it applies to the codes of a sign-in, and ours to every other code
 * (http/guards/attempt-limits.ts). */
export const TWO_FACTOR_LOCKOUT = { maxFailedAttempts: 10, durationSeconds: 900 } as const;

/** What identity asks of the rest of the server: the root (services.ts) passes these in, so that
 * this layer knows no member, wallet or reward. */
export interface IdentityHooks {
  mailQueued: () => void;
  sessionEnded: (token: string) => void;
  /** A password was reset: the member's keystore is still locked by the old password. */
  passwordReset: (userId: string) => Promise<void>;
  /** Runs before an address is marked confirmed; if it throws, the link can be used again. */
  confirming: (userId: string) => Promise<void>;
  /** The wallet address the confirmation mail names. */
  walletOf: (userId: string) => Promise<string>;
  /** A session began in the browser whose device cookie is `deviceId` (security-events.ts decides
   * whether that device is new to the member); `renewal` when better-auth only replaced the
   * session of this browser (two-factor turned on or off). */
  sessionBegan: (began: {
    userId: string;
    deviceId: string;
    client: ClientSeen;
    renewal: boolean;
  }) => Promise<void>;
  /** Which member a passkey's answer (POST /auth/passkey/sign-in's body, from `origin`) signs in. */
  verifyPasskey: (body: unknown, origin: string | null) => Promise<PasskeyVerdict>;
  /** better-auth changed something the member must hear of: their password reset with a mailed
   * link, two-factor sign-in turned on or off. */
  securityChanged: (
    userId: string,
    kind: 'password_changed' | 'two_factor_on' | 'two_factor_off',
    client: ClientSeen,
  ) => Promise<void>;
}

/** Where a request came from: its user agent and the address this server trusts. */
interface ClientSeen {
  userAgent: string | null | undefined;
  address: string | null | undefined;
}

const clientOf = (headers: Headers | undefined): ClientSeen => ({
  userAgent: headers?.get('user-agent'),
  address: headers?.get(TRUSTED_ADDRESS_HEADER),
});

/** The cookie that tells one browser from another for the member's sign-ins (docs/security.md#security-events):
 * 32 random bytes, base64url, httpOnly, kept 400 days (browsers keep no cookie longer) and renewed at
 * each sign-in. It proves nothing and opens nothing; the database keeps only its SHA-256. */
export const DEVICE_COOKIE = 'device';
const DEVICE_COOKIE_MAX_AGE_S = 400 * 24 * 60 * 60;
const DEVICE_ID = /^[A-Za-z0-9_-]{43}$/;

/** Paths where better-auth gives the signed-in browser a new session without a sign-in: turning
 * two-factor on (verify-totp with no pending sign-in) or off. */
const RENEWING_PATHS = new Set([
  '/two-factor/enable',
  '/two-factor/disable',
  '/two-factor/verify-totp',
]);
/** The two-factor plugin's cookie of a sign-in waiting for its code. */
const TWO_FACTOR_PENDING_COOKIE = 'two_factor';

export function createAuth(
  config: Config,
  database: Database,
  signingKey: string,
  on: IdentityHooks,
  log: Log,
) {
  const queue = async (mail: NewMail) => {
    await enqueueMail(database.db, mail);
    on.mailQueued();
  };
  const secretLength = AUTH_SECRET_PATTERN.source.match(/\{(\d+)\}/)?.[1];
  return betterAuth({
    appName: 'Community Rewards Wallet',
    baseURL: config.publicUrl,
    basePath: AUTH_BASE_PATH,
    secret: signingKey,
    database: { dialect: database.dialect, type: 'postgres' },
    trustedOrigins: trustedOrigins(config),
    telemetry: { enabled: false },
    // better-auth's own notes go to our logs: a refused sign-in is routine (info), not a warning.
    logger: {
      level: 'debug',
      log: (level, message, ...args) => {
        // The database being away is an outage the request answers with 503 (http/plugins/errors.ts), not a bug.
        const outage = level === 'error' && args.some(isDatabaseUnavailable);
        const target = outage
          ? 'warn'
          : level === 'error'
            ? 'error'
            : level === 'warn'
              ? 'info'
              : 'debug';
        log[target]({ args: args.length > 0 ? args : undefined }, `better-auth: ${message}`);
      },
    },
    // Passkey sign-in adds an endpoint and no table, so the migrator's list stays authPlugins.
    plugins: [...authPlugins, passkeySignIn(on.verifyPasskey, config.REQUIRE_EMAIL_CONFIRMATION)],
    // This process forgets an ended session before the answer leaves; the others hear of it from
    // the session table's trigger (infra/identity/session.ts).
    databaseHooks: {
      session: { delete: { after: async (session) => on.sessionEnded(session.token) } },
      // Two-factor turned on (enrolment's first code) or off: the plugin changes the user's flag on
      // these two paths only, after checking the password (and, for off, our route's code).
      user: {
        update: {
          after: async (user, ctx) => {
            const path = ctx?.path;
            if (path === '/two-factor/verify-totp' && user.twoFactorEnabled === true)
              await on.securityChanged(user.id, 'two_factor_on', clientOf(ctx?.headers));
            else if (path === '/two-factor/disable' && user.twoFactorEnabled === false)
              await on.securityChanged(user.id, 'two_factor_off', clientOf(ctx?.headers));
          },
        },
      },
    },
    // Each session that begins tells which browser it began in (the device cookie, given here when
    // the browser has none), so a sign-in on a device the member never used can be told to them.
    hooks: {
      after: createAuthMiddleware(async (ctx) => {
        const began = ctx.context.newSession;
        if (!began) return;
        // A member with two-factor on: the plugin's hook, after this one, ends this session and
        // asks for the code; the session the code gives is the sign-in.
        if (began.user.twoFactorEnabled && ctx.path === '/sign-in/email') return;
        const cookie = ctx.context.createAuthCookie(DEVICE_COOKIE, {
          maxAge: DEVICE_COOKIE_MAX_AGE_S,
        });
        const sent = ctx.getCookie(cookie.name);
        const deviceId =
          sent && DEVICE_ID.test(sent) ? sent : randomBytes(32).toString('base64url');
        ctx.setCookie(cookie.name, deviceId, cookie.attributes);
        const pending = await ctx.getSignedCookie(
          ctx.context.createAuthCookie(TWO_FACTOR_PENDING_COOKIE).name,
          ctx.context.secret,
        );
        await on.sessionBegan({
          userId: began.user.id,
          deviceId,
          client: { userAgent: began.session.userAgent, address: began.session.ipAddress },
          renewal: RENEWING_PATHS.has(ctx.path ?? '') && !pending,
        });
      }),
    },
    rateLimit: { enabled: false }, // limits are ours (per IP and per e-mail), see http/routes/auth-proxy.ts
    // Reset tokens are kept as SHA-256 hashes: whoever reads the table (or its files) resets nothing.
    // E-mail confirmation tokens are signed JWTs, never stored.
    verification: { storeIdentifier: 'hashed' },
    advanced: {
      // The session check, when it reaches better-auth, is one indexed query (session by token
      // joined to its user); infra/identity/session.ts remembers the answer briefly (no cookie cache).
      database: { generateId: () => randomUUID(), joins: true },
      cookiePrefix: 'crw',
      // A session's address is the one this server trusts, never the client's X-Forwarded-For
      // (http/guards/client-address.ts); kept whole, not cut to its /64 network.
      ipAddress: { ipAddressHeaders: [TRUSTED_ADDRESS_HEADER], ipv6Subnet: 128 },
      useSecureCookies: config.publicUrl.startsWith('https://'),
    },
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      requireEmailVerification: config.REQUIRE_EMAIL_CONFIRMATION,
      autoSignIn: false,
      minPasswordLength: Number(secretLength ?? 64),
      maxPasswordLength: Number(secretLength ?? 64),
      resetPasswordTokenExpiresIn: RESET_TOKEN_EXPIRES_IN_S,
      revokeSessionsOnPasswordReset: true,
      password: { hash: hashSecret, verify: verifySecret },
      sendResetPassword: async ({ user, url }) => queue(passwordResetMail(user.email, url)),
      onPasswordReset: async ({ user }, request) => {
        await on.passwordReset(user.id);
        await on.securityChanged(user.id, 'password_changed', clientOf(request?.headers));
      },
    },
    emailVerification: {
      sendOnSignUp: false,
      sendOnSignIn: false,
      autoSignInAfterVerification: true,
      beforeEmailVerification: async (user) => on.confirming(user.id),
      expiresIn: EMAIL_TOKEN_EXPIRES_IN_S,
      sendVerificationEmail: async ({ user, url }) =>
        queue(confirmationMail(user.email, url, await on.walletOf(user.id))),
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

/** Where the sister app finds the keys that verify our hand-off JWTs (under /auth). */
export const JWKS_PATH = '/.well-known/jwks.json';

/** The name an authenticator app shows beside the member's e-mail. */
export const TOTP_ISSUER = 'REME Wallet';

/** Ten backup codes of eight characters drawn (node:crypto) from an alphabet without the ones
 * read as another (no I, O, 0, 1), in two groups: "ABCD-EFGH", 40 bits each. better-auth
 * compares them as stored, so what a member types is made this shape first (`canonicalBackupCode`,
 * core/src/api/settings.ts): any case, with the dash or without. */
export function newBackupCodes(): string[] {
  return Array.from({ length: 10 }, () => {
    let code = '';
    for (let i = 0; i < BACKUP_CODE_LENGTH; i++)
      code += BACKUP_CODE_ALPHABET[randomInt(BACKUP_CODE_ALPHABET.length)];
    return `${code.slice(0, 4)}-${code.slice(4)}`;
  });
}

/** Plugins change better-auth's tables, so the migrator and the instance share this list. The JWT
 * plugin signs only hand-off identities (http/routes/member/handoff.ts): no JWT header on session calls.
 * Two-factor sign-in (decision 0015): an authenticator app (TOTP) and ten single-use backup codes
 * (`newBackupCodes`); the password it asks for is the derived auth secret. A sign-in that passed
 * the password waits at most 10 minutes for the code, 5 wrong codes end it, and 10 wrong codes in
 * a row lock the account's second factor for 15 minutes (better-auth's defaults, named in
 * attempt-limits.ts, whose lock counts the codes a signed-in member sends too). No "trust this
 * device": every sign-in asks. */
export const authPlugins = [
  jwt({ jwks: { jwksPath: JWKS_PATH }, disableSettingJwtHeader: true }),
  twoFactor({
    issuer: TOTP_ISSUER,
    twoFactorCookieMaxAge: 600,
    backupCodeOptions: {
      customBackupCodesGenerate: newBackupCodes,
      storeBackupCodes: 'encrypted',
    },
    accountLockout: { enabled: true, ...TWO_FACTOR_LOCKOUT },
  }),
];

/** Creates or updates better-auth's own tables (its CLI needs Node 22; this is the same migrator). */
export async function migrateAuthTables(database: Database): Promise<string[]> {
  const { toBeCreated, toBeAdded, runMigrations } = await getMigrations({
    database: { dialect: database.dialect, type: 'postgres' },
    plugins: authPlugins,
  });
  await runMigrations();
  return [...toBeCreated.map((t) => t.table), ...toBeAdded.map((t) => t.table)];
}
