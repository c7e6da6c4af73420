// The server's whole environment, parsed once at start. A bad value stops the process with a
// list of every problem (main.ts prints it and exits 1).
import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const booleanString = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

/** Names proxy-addr (Fastify's trustProxy) knows besides addresses and networks. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return (
    prefix === undefined ||
    (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128))
  );
}

/** Whose X-Forwarded-For to believe: no one (false), that many proxies in front (a number), or the
 * proxies at these addresses. `true` would believe every client, who could then pick its own IP. */
const trustProxySetting = z.string().transform((raw, ctx): false | number | string => {
  const value = raw.trim();
  if (value === 'false' || value === '0') return false;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  if (entries.every(isProxyAddress)) return entries.join(',');
  ctx.addIssue({
    code: 'custom',
    message:
      value === 'true'
        ? 'true would let any client choose its IP address (X-Forwarded-For); write the number of proxies in front of the server (TRUST_PROXY=1 for one nginx) or their addresses (TRUST_PROXY=10.0.0.5 or 10.0.0.0/8,127.0.0.1)'
        : 'must be false, a number of proxies, or a comma-separated list of proxy addresses or networks (10.0.0.5, 10.0.0.0/8)',
  });
  return z.NEVER;
});

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('localhost'),
    PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    TRUST_PROXY: trustProxySetting.default(false),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    /** PostgreSQL: the role that owns the schema and runs the migrations; DATABASE_URL's role then
     * only uses it (it cannot rewrite the audit log: docs/operations.md#database-roles). */
    DATABASE_MIGRATION_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    /** PostgreSQL: each listening connection hears its own heartbeat this often; one not heard
     * within as long again is rebuilt (infra/db/postgres-listener.ts). */
    DATABASE_LISTEN_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(60).default(5),
    SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
    /** How long a mail claimed by a process stays its own: after a crash, another process retries it then. */
    MAIL_LEASE_SECONDS: z.coerce.number().int().min(1).max(3_600).default(60),
    /** How long a process trusts a session better-auth vouched for without asking again; an ended
     * session is forgotten at once by every process (infra/identity/session.ts). 0: ask every time. */
    SESSION_CHECK_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(30),
    /** How long a process keeps a member's /api/me row at most; a change drops it at once (member-cache.ts). 0: read every time. */
    MEMBER_CACHE_SECONDS: z.coerce.number().int().min(0).max(3_600).default(60),
    /** Event streams one session may hold open, and one client address (IPv4, IPv6 /64): a new one
     * past either closes the oldest (docs/security.md#limits-proxies-files-logs). */
    EVENT_STREAMS_PER_SESSION: z.coerce.number().int().min(1).max(1_000).default(8),
    EVENT_STREAMS_PER_CLIENT: z.coerce.number().int().min(1).max(1_000_000).default(1_000),
    /** On SIGTERM, /api/health answers 503 for this long while requests are still served, so a proxy
     * in front (deploy/haproxy.cfg checks every 2 s, out after two failures) stops sending any before
     * the process stops listening. 0 without a proxy (docs/operations.md#scale-out). */
    SHUTDOWN_DRAIN_SECONDS: z.coerce.number().int().min(0).max(60).default(0),
    MAIL_FROM: z.string().min(3).default('Community Rewards <no-reply@localhost>'),
    AUTH_SECRET: z.string().min(32).optional(),
    REQUIRE_EMAIL_CONFIRMATION: booleanString.default(true),
    OPERATOR_API_KEY: z.string().min(32).optional(),
    /** Web push (infra/push/vapid.ts): the VAPID key pair, base64url (npx web-push
     * generate-vapid-keys); both or neither; required in production, else made at first start and
     * kept in DATA_DIR/vapid-keys (0600). */
    VAPID_PUBLIC_KEY: z
      .string()
      .regex(
        /^[A-Za-z0-9_-]{87}$/,
        'must be an uncompressed P-256 public key, base64url (87 characters)',
      )
      .optional(),
    VAPID_PRIVATE_KEY: z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/, 'must be a P-256 private key, base64url (43 characters)')
      .optional(),
    /** Who push services may contact about our pushes: mailto: or https: (default: PUBLIC_URL when
     * it is https, else MAIN_SITE_URL). */
    VAPID_SUBJECT: z.url({ protocol: /^(mailto|https)$/ }).optional(),
    AUTH_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(30),
    AUTH_RATE_LIMIT_PER_EMAIL: z.coerce.number().int().min(1).default(5),
    AUTH_RATE_LIMIT_WINDOW_MINUTES: z.coerce.number().int().min(1).default(10),
    /** The sign-up gate (docs/security.md#the-sign-up-gate): the most PBKDF2 attempts a challenge
     * asks of every client (each of 1,000 iterations; the answer lies between half this and this). */
    SIGNUP_GATE_BASE_MAX_NUMBER: z.coerce.number().int().min(2).max(100_000_000).default(100),
    /** The same for a client network past SIGNUP_GATE_NETWORK_HOURLY_SIGNUPS (never below the base). */
    SIGNUP_GATE_RAISED_MAX_NUMBER: z.coerce.number().int().min(2).max(100_000_000).default(40_000),
    /** Accounts one network (IPv4 /24, IPv6 /48) registers per hour at the base difficulty; its next
     * challenges (sign-up, resend and reset alike) are raised until the hour has passed. */
    SIGNUP_GATE_NETWORK_HOURLY_SIGNUPS: z.coerce.number().int().min(1).max(100_000).default(5),
    MAIN_SITE_URL: z.url().default('https://example.org'),
    TERMS_URL: z.url().default('https://example.org/terms'),
    HELP_URL: z.url().default('https://example.org/help'),
    MARKET_URL: z.url().default('https://example.org/market'),
    /** The sister community app: its link carries a one-time hand-off code as `authtoken`. */
    COMMUNITY_APP_URL: z.url({ protocol: /^https?$/ }).default('https://example.org/community'),
    /** What the sister app presents (Bearer) to redeem hand-off codes; embedded default: DATA_DIR/community-app-secret. */
    COMMUNITY_APP_CLIENT_SECRET: z.string().min(32).optional(),
    /** Hand-off codes the sister app (its client secret) may redeem per minute, from any address. */
    HANDOFF_REDEEM_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
    BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(10_485_760).default(102_400),
    CHAIN_RPC_URL: z.url({ protocol: /^https?$/ }).optional(),
    TOKEN_ADDRESS: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x address')
      .optional(),
    DISTRIBUTOR_ADDRESS: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x address')
      .optional(),
    OPERATOR_PRIVATE_KEY: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex key')
      .optional(),
    /** Embedded chain: when the journal no longer replays, stop (naming the entry) or archive it and every later one. */
    CHAIN_JOURNAL_ON_DIVERGENCE: z.enum(['stop', 'archive']).default('stop'),
    /** Blocks the chain follower leaves on top of the head before indexing (default: 0 embedded, 2 with CHAIN_RPC_URL). */
    CHAIN_CONFIRMATIONS: z.coerce.number().int().min(0).max(1000).optional(),
    /** How often the chain follower asks the node for new blocks (and a waiting process tries to lead). */
    CHAIN_POLL_INTERVAL_MS: z.coerce.number().int().min(50).max(3_600_000).default(4_000),
    /** The first block the follower reads (the contracts' deployment block on a remote chain). */
    CHAIN_START_BLOCK: z.coerce.number().int().min(0).default(0),
    /** Sponsored claims: the operator's relayer pays members' claim fees (default: on with the embedded chain, off with CHAIN_RPC_URL). */
    SPONSOR_CLAIMS: booleanString.optional(),
    /** What the relayer may spend on fees per UTC day, in ETH; past it members pay their own fee. */
    SPONSOR_DAILY_BUDGET_ETH: z
      .string()
      .regex(/^\d+(\.\d{1,18})?$/, 'must be an amount of ETH such as 0.05')
      .default('0.05'),
    /** Accounts younger than this pay their own claim fee (a farm's fresh accounts never spend the budget); 0: from the start. */
    SPONSOR_MIN_ACCOUNT_AGE_HOURS: z.coerce.number().int().min(0).max(8_760).default(72),
    /** The share of the day's fee budget claims from one network (IPv4 /24, IPv6 /48) may spend, in percent. */
    SPONSOR_NETWORK_SHARE_PERCENT: z.coerce.number().int().min(1).max(100).default(20),
    /** The highest fee per gas the relayer pays, in gwei; above it members pay their own fee. */
    SPONSOR_MAX_FEE_GWEI: z
      .string()
      .regex(/^\d+(\.\d{1,9})?$/, 'must be an amount of gwei such as 30')
      .default('30'),
    /** The relayer's own key (never the operator's: each sends its own nonce sequence). Embedded: DATA_DIR/chain-relayer-key. */
    RELAYER_PRIVATE_KEY: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex key')
      .optional(),
    /** Most claims in one batch transaction. */
    RELAYER_BATCH_SIZE: z.coerce.number().int().min(1).max(300).default(100),
    /** How long the relayer lets claims gather before sending a batch that is not full. */
    RELAYER_BATCH_WAIT_MS: z.coerce.number().int().min(0).max(600_000).default(2_000),
    /** A batch not mined after this is sent again with a higher fee (same nonce). */
    RELAYER_REPLACE_AFTER_SECONDS: z.coerce.number().int().min(1).max(3_600).default(60),
    /** Below this balance (ETH) the relayer logs a warning each hour, and /metrics shows it. */
    RELAYER_LOW_BALANCE_ETH: z
      .string()
      .regex(/^\d+(\.\d{1,18})?$/, 'must be an amount of ETH such as 0.05')
      .default('0.05'),
    /** Below this balance (ETH) the publisher (OPERATOR_PRIVATE_KEY) cannot be relied on to propose
     * rounds: an alert in the log, /metrics, the console and the operators' mail. */
    PUBLISHER_LOW_BALANCE_ETH: z
      .string()
      .regex(/^\d+(\.\d{1,18})?$/, 'must be an amount of ETH such as 0.05')
      .default('0.05'),
    EXPLORER_URL: z.url().optional(),
    EXCHANGE_URL: z.url().default('https://www.coinbase.com/how-to-buy/ethereum'),
    REME_PRICE: z
      .string()
      .regex(/^\d+(\.\d{1,6})?$/, 'must be a decimal number such as 0.10')
      .default('0.10'),
    /** GBP per ETH, for the £ value beside ETH amounts (the claim fee, the wallet's ETH). */
    ETH_PRICE_GBP: z
      .string()
      .regex(/^\d+(\.\d{1,6})?$/, 'must be a decimal number such as 2000')
      .default('2000'),
    /** Where members get free test ETH on a test network (default: the public faucet of a known one). */
    FAUCET_URL: z.url().optional(),
    RPC_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
    /** How long one read of a wallet's ETH serves the claim screen's asks (http/routes/member/fee-balance.ts). */
    FEE_BALANCE_CACHE_MS: z.coerce.number().int().min(0).max(300_000).default(3_000),
    /** How often a member may ask for that balance, per minute (the claim screen asks every 4 s at most). */
    FEE_BALANCE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
    RPC_MAX_BATCH: z.coerce.number().int().min(1).max(100).default(20),
    /** Longest wait for the chain's answer to one /rpc call before answering an error. */
    RPC_CALL_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5_000),
    /** How long the joining bonus and referral credits are held before they count (docs/operations.md#reward-integrity); 0: never held, no signals. */
    REWARD_HOLD_HOURS: z.coerce.number().int().min(0).max(8_760).default(72),
    /** Level-1 referral credits a referrer earns in 24 hours before the next ones wait for an operator. */
    REWARD_REFERRER_DAILY_CAP: z.coerce.number().int().min(1).max(100_000).default(10),
    /** Other sign-ups from one network (IPv4 /24, IPv6 /48) in 24 hours that make a sign-up from it a signal. */
    REWARD_BUSY_NETWORK_SIGNUPS: z.coerce.number().int().min(1).max(100_000).default(3),
    /** Whether members may convert their care CAPs into REME (docs/product.md#caps-and-reme). */
    CONVERSION_OPEN: booleanString.default(true),
    /** Whether "claim for me" is on for a member who joins (docs/decisions/0023-notifications.md);
     * each member changes it on the account page. */
    CLAIM_FOR_ME_DEFAULT: booleanString.default(true),
    /** How many care CAPs buy one REME, to three decimals (the specification's 6.028). */
    CONVERSION_CAPS_PER_REME: z
      .string()
      .regex(/^\d{1,5}(\.\d{1,3})?$/, 'must be a number of CAPs such as 6.028')
      .refine((v) => Number(v) > 0, 'must be more than 0')
      .default('6.028'),
    WEB_DIST_DIR: z.string().min(1).default(path.join(repoRoot, 'web/dist')),
  })
  .superRefine((env, ctx) => {
    const remoteChain = [
      'CHAIN_RPC_URL',
      'TOKEN_ADDRESS',
      'DISTRIBUTOR_ADDRESS',
      'OPERATOR_PRIVATE_KEY',
    ] as const;
    if (env.CHAIN_RPC_URL || env.NODE_ENV === 'production') {
      for (const key of remoteChain) {
        if (!env[key])
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: 'is required with a remote chain (CHAIN_RPC_URL) and in production',
          });
      }
    }
    if (env.CHAIN_RPC_URL && env.SPONSOR_CLAIMS === true && !env.RELAYER_PRIVATE_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['RELAYER_PRIVATE_KEY'],
        message:
          'is required for sponsored claims on a remote chain (a key of its own, funded with `npm run ops -- fund-relayer`)',
      });
    }
    if (
      env.RELAYER_PRIVATE_KEY &&
      env.RELAYER_PRIVATE_KEY.toLowerCase() === env.OPERATOR_PRIVATE_KEY?.toLowerCase()
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['RELAYER_PRIVATE_KEY'],
        message:
          'must differ from OPERATOR_PRIVATE_KEY (each key sends its own sequence of transactions)',
      });
    }
    if (!env.VAPID_PUBLIC_KEY !== !env.VAPID_PRIVATE_KEY)
      ctx.addIssue({
        code: 'custom',
        path: [env.VAPID_PUBLIC_KEY ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY'],
        message: 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together (one key pair)',
      });
    if (env.DATABASE_MIGRATION_URL && !env.DATABASE_URL)
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_MIGRATION_URL'],
        message: 'needs DATABASE_URL (the role the server runs as)',
      });
    if (env.NODE_ENV !== 'production') return;
    if (!env.SMTP_URL)
      ctx.addIssue({
        code: 'custom',
        path: ['SMTP_URL'],
        message: 'is required in production (the dev mailbox exists only outside production)',
      });
    if (!env.PUBLIC_URL)
      ctx.addIssue({ code: 'custom', path: ['PUBLIC_URL'], message: 'is required in production' });
    if (!env.OPERATOR_API_KEY)
      ctx.addIssue({
        code: 'custom',
        path: ['OPERATOR_API_KEY'],
        message: 'is required in production (at least 32 characters)',
      });
    if (!env.AUTH_SECRET)
      ctx.addIssue({
        code: 'custom',
        path: ['AUTH_SECRET'],
        message: 'is required in production (at least 32 characters)',
      });
    if (!env.VAPID_PUBLIC_KEY && !env.VAPID_PRIVATE_KEY)
      ctx.addIssue({
        code: 'custom',
        path: ['VAPID_PUBLIC_KEY'],
        message:
          'and VAPID_PRIVATE_KEY are required in production (every process pushes with one key pair: npx web-push generate-vapid-keys)',
      });
    if (!env.COMMUNITY_APP_CLIENT_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['COMMUNITY_APP_CLIENT_SECRET'],
        message:
          'is required in production (at least 32 characters; the sister app sends it to redeem hand-off codes)',
      });
    }
  });

/** What `ops deploy` reads: the chain, the operator key and DATA_DIR, none of the server's other settings. */
export const deployEnvSchema = z.object({
  CHAIN_RPC_URL: envSchema.shape.CHAIN_RPC_URL,
  OPERATOR_PRIVATE_KEY: envSchema.shape.OPERATOR_PRIVATE_KEY,
  TOKEN_ADDRESS: envSchema.shape.TOKEN_ADDRESS,
  DISTRIBUTOR_ADDRESS: envSchema.shape.DISTRIBUTOR_ADDRESS,
  DATA_DIR: envSchema.shape.DATA_DIR,
  /** Hours a proposed root waits before it pays (docs/decisions/0027); --review-hours wins. */
  ROUND_REVIEW_HOURS: z.optional(z.coerce.number().min(0).max(720)),
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Env {
  publicUrl: string;
  /** CHAIN_CONFIRMATIONS with its default for the chain in use. */
  chainConfirmations: number;
  /** SPONSOR_CLAIMS with its default for the chain in use. */
  sponsorClaims: boolean;
  dataDir: string;
  isProduction: boolean;
}

export type ConfigResult = { ok: true; config: Config } | { ok: false; problems: string[] };

/** Empty values (`DATABASE_URL=` in a .env) mean "not set". */
export function withoutEmpty(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(
      (e): e is [string, string] => e[1] !== undefined && e[1].trim() !== '',
    ),
  );
}

export function parseConfig(env: Record<string, string | undefined>): ConfigResult {
  const parsed = envSchema.safeParse(withoutEmpty(env));
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map(
        (i) => `${i.path.join('.') || '(environment)'}: ${i.message}`,
      ),
    };
  }
  const e = parsed.data;
  return {
    ok: true,
    config: {
      ...e,
      publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
      chainConfirmations: e.CHAIN_CONFIRMATIONS ?? (e.CHAIN_RPC_URL ? 2 : 0),
      sponsorClaims: e.SPONSOR_CLAIMS ?? !e.CHAIN_RPC_URL,
      dataDir: path.resolve(e.DATA_DIR),
      isProduction: e.NODE_ENV === 'production',
    },
  };
}
