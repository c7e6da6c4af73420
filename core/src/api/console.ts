// The operator console's API (/api/console): a signed-in operator whose session passed
// two-factor sign-in. The Bearer-key operator API (/api/operator) stays for the CLI.
import * as z from 'zod/mini';
import { capsTotals, ledgerEntry } from './account-lifecycle';
import { plainText } from './common';

const isoDate = z.string();
const amount = z.string().check(z.regex(/^\d+$/, 'an integer amount in base units'));

/** GET /api/console/me: the operator the console opens for. */
export const consoleMeResponse = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string(),
});
export type ConsoleMe = z.infer<typeof consoleMeResponse>;

export const MEMBER_SORTS = ['joined', 'name'] as const;
export type MemberSort = (typeof MEMBER_SORTS)[number];
export const MEMBER_PAGE_SIZE = 50;

/** GET /api/console/members: the start of a name, e-mail, wallet or referral code; pages by cursor. */
export const memberSearchQuery = z.object({
  q: z.optional(plainText(100, { trim: true })),
  sort: z._default(z.enum(MEMBER_SORTS), 'joined'),
  cursor: z.optional(plainText(400)),
});
export type MemberSearchQuery = z.input<typeof memberSearchQuery>;

export const memberRow = z.object({
  id: z.string(),
  name: z.string(),
  username: z.string(),
  email: z.string(),
  referralCode: z.nullable(z.string()),
  wallet: z.nullable(z.string()),
  joinedAt: isoDate,
  confirmed: z.boolean(),
  caps: z.number(),
});
export type MemberRow = z.infer<typeof memberRow>;

export const memberSearchResponse = z.object({
  members: z.array(memberRow),
  nextCursor: z.nullable(z.string()),
});

/** A member's page carries their newest ledger rows, this many (a referrer of thousands has as many). */
export const MEMBER_LEDGER_ROWS = 100;

export const memberIdParams = z.object({ id: plainText(100, { min: 1 }) });

/** GET /api/console/members/:id: everything an operator needs to help one member. */
export const memberDetailResponse = z.object({
  member: z.extend(memberRow, {
    operator: z.boolean(),
    twoFactorEnabled: z.boolean(),
    referredBy: z.nullable(z.object({ id: z.string(), name: z.string() })),
  }),
  caps: capsTotals,
  /** The newest MEMBER_LEDGER_ROWS credits, newest first. */
  ledger: z.array(ledgerEntry),
  network: z.object({
    level1: z.number(),
    level2: z.number(),
    level3: z.number(),
    /** The first members of the network (at most 300), each with who brought them in. */
    members: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        level: z.number(),
        parentId: z.nullable(z.string()),
        joinedAt: isoDate,
      }),
    ),
  }),
  chain: z.nullable(z.object({ remeBalance: z.nullable(amount), claimed: z.nullable(amount) })),
  rounds: z.array(
    z.object({
      round: z.number(),
      status: z.string(),
      cumulativeAmount: amount,
      publishedAt: z.nullable(isoDate),
    }),
  ),
  claims: z.array(z.object({ blockNumber: z.number(), txHash: z.string(), amount })),
  sponsoredClaims: z.array(
    z.object({
      round: z.number(),
      amount,
      status: z.string(),
      reason: z.nullable(z.string()),
      requestedAt: isoDate,
    }),
  ),
  mails: z.array(
    z.object({
      id: z.number(),
      subject: z.string(),
      status: z.string(),
      attempts: z.number(),
      lastError: z.nullable(z.string()),
      createdAt: isoDate,
      sentAt: z.nullable(isoDate),
    }),
  ),
});
export type MemberDetail = z.infer<typeof memberDetailResponse>;

/** POST /api/console/members/:id/care-actions, with an Idempotency-Key header. */
export const consoleCareActionRequest = z.object({
  caps: z.int().check(z.positive(), z.maximum(100_000)),
  description: plainText(200, { trim: true, min: 1 }),
});

/** The Idempotency-Key header a console action carries (a retry sends the same one). */
export const idempotencyKeyHeader = z.object({
  'idempotency-key': plainText(100, { trim: true, min: 8 }),
});

/** POST /api/operator/operators (Bearer): grant or revoke the operator role. */
export const operatorRoleRequest = z.object({
  email: z.email(),
  operator: z.boolean(),
});
export const operatorRoleResponse = z.object({
  userId: z.string(),
  email: z.string(),
  operator: z.boolean(),
  changed: z.boolean(),
});

/** A row id in a URL: a whole number a bigint column can hold and JavaScript can count exactly. */
export const rowIdParam = z.coerce
  .number()
  .check(z.int(), z.minimum(1), z.maximum(Number.MAX_SAFE_INTEGER));

export const auditQuery = z.object({ before: z.optional(rowIdParam) });
export const auditEntry = z.object({
  id: z.number(),
  at: isoDate,
  actor: z.enum(['console', 'api-key']),
  operatorEmail: z.nullable(z.string()),
  action: z.string(),
  target: z.nullable(z.string()),
  detail: z.record(z.string(), z.unknown()),
  ip: z.nullable(z.string()),
  idempotencyKey: z.nullable(z.string()),
});
export type AuditEntry = z.infer<typeof auditEntry>;
export const auditResponse = z.object({
  entries: z.array(auditEntry),
  nextBefore: z.nullable(z.number()),
});
export const AUDIT_PAGE_SIZE = 100;
