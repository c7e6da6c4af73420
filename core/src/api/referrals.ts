import * as z from 'zod/mini';
import { plainText } from './common';

/** One member of the signed-in member's network: ids for the tree, and only what the member may
 * know of them. A friend who joined through the member's own link (level 1) comes with the first
 * word of the name they gave (at most 40 characters), or their wallet address shortened
 * ("0x1234…abcd") when they gave none; deeper levels are never named (the member does not know
 * them). Never an e-mail, a username or a last name. */
export const hierarchyItem = z.object({
  referred_id: z.string(),
  /** Who brought this member in: the signed-in member (level 1) or a member of level 1 or 2. */
  parent_id: z.nullable(z.string()),
  level: z.int().check(z.minimum(1), z.maximum(3)),
  created_at: z.string(),
  /** Level 1 only: the first word of the name the friend gave; null otherwise. */
  name: z.nullable(z.string().check(z.maxLength(40))),
  /** Level 1 only, when the friend gave no name: their wallet address shortened; null otherwise. */
  short_address: z.nullable(z.string().check(z.maxLength(13))),
});
export type NetworkMember = z.infer<typeof hierarchyItem>;

/** GET /api/referrals/network: the member's network stats. */
export const networkStatsResponse = z.object({
  success: z.boolean(),
  data: z.object({
    hierarchy: z.array(hierarchyItem),
    level_counts: z.object({ level1: z.int(), level2: z.int(), level3: z.int() }),
    total_network_size: z.int(),
  }),
});
export type NetworkStats = z.infer<typeof networkStatsResponse>;

/** GET /api/referrals/credits: the referral credit history items. */
export const creditHistoryResponse = z.object({
  data: z.array(
    z.object({
      id: z.int(),
      from_user_id: z.nullable(z.string()),
      amount: z.int(),
      level: z.nullable(z.int()),
      created_at: z.string(),
      description: z.string(),
    }),
  ),
});

/** GET /api/referrals/balance: the referral balance. */
export const referralBalanceResponse = z.object({ data: z.object({ total_earned: z.int() }) });

/** The Total CAPs Earned breakdown (on the dashboard). */
export const capsBreakdown = z.object({
  registration: z.int(),
  referrals: z.int(),
  careActions: z.int(),
  /** Every CAP earned (registration, referrals and care), converted ones included. */
  total: z.int(),
  /** Care CAPs the member converted into REME (docs/product.md#caps-and-reme). */
  converted: z.int(),
  /** Care CAPs the member may still convert. */
  convertible: z.int(),
});
export type CapsBreakdown = z.infer<typeof capsBreakdown>;

/** GET /api/referrals/codes/:code: whether a referral link's code names a member, and that member's
 * first name (null when they gave none), so the link's page can say who invited the friend — nothing
 * else about them (public, limited per client address). */
export const referralCodeParams = z.object({ code: plainText(64) });
export const referralCodeCheckResponse = z.object({
  valid: z.boolean(),
  inviter: z.optional(z.nullable(z.string())),
});

/** POST /api/referrals/pending: the pending referral kept at sign-up, processed at sign-in. */
export const pendingReferralRequest = z.object({ referralCode: plainText(200) });
export const pendingReferralResponse = z.object({
  success: z.boolean(),
  message: z.optional(z.string()),
});

/** POST /api/operator/care-actions: credit a care action (operator API key). */
export const careActionRequest = z
  .object({
    idempotencyKey: plainText(100, { trim: true, min: 1 }),
    email: z.optional(z.email()),
    userId: z.optional(plainText(100, { min: 1 })),
    caps: z.int().check(z.positive(), z.maximum(100_000)),
    description: plainText(200, { trim: true, min: 1 }),
  })
  .check(
    z.refine((v) => Boolean(v.email) !== Boolean(v.userId), {
      message: 'give exactly one of email and userId',
    }),
  );
export const careActionResponse = z.object({
  credited: z.boolean(),
  userId: z.string(),
  caps: z.int(),
});
/** 409: the idempotency key was used for another member or amount; what it recorded then. */
export const careActionConflictResponse = z.object({
  code: z.literal('idempotency_conflict'),
  message: z.string(),
  recorded: z.object({
    userId: z.string(),
    caps: z.int(),
    description: z.string(),
    creditedAt: z.string(),
  }),
});
