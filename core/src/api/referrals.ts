import { z } from 'zod';

/** One member of the signed-in member's network (ids only: names are not shown to other members). */
export const hierarchyItem = z.object({
  referred_id: z.string(),
  /** Who brought this member in: the signed-in member (level 1) or a member of level 1 or 2. */
  parent_id: z.string().nullable(),
  level: z.number().int().min(1).max(3),
  created_at: z.string(),
});

/** GET /api/referrals/network: SPEC §3's network stats response. */
export const networkStatsResponse = z.object({
  success: z.boolean(),
  data: z.object({
    hierarchy: z.array(hierarchyItem),
    level_counts: z.object({ level1: z.number().int(), level2: z.number().int(), level3: z.number().int() }),
    total_network_size: z.number().int(),
  }),
});
export type NetworkStats = z.infer<typeof networkStatsResponse>;

/** GET /api/referrals/credits: SPEC §3's referral credit history items. */
export const creditHistoryResponse = z.object({
  data: z.array(
    z.object({
      id: z.number().int(),
      from_user_id: z.string().nullable(),
      amount: z.number().int(),
      level: z.number().int().nullable(),
      created_at: z.string(),
      description: z.string(),
    }),
  ),
});

/** GET /api/referrals/balance: SPEC §3's referral balance response. */
export const referralBalanceResponse = z.object({ data: z.object({ total_earned: z.number().int() }) });

/** The Total CAPs Earned breakdown (SPEC §2 dashboard). */
export const capsBreakdown = z.object({
  registration: z.number().int(),
  referrals: z.number().int(),
  careActions: z.number().int(),
  total: z.number().int(),
});
export type CapsBreakdown = z.infer<typeof capsBreakdown>;

/** POST /api/referrals/pending: the pending referral of SPEC §4, processed at sign-in. */
export const pendingReferralRequest = z.object({ referralCode: z.string().max(200) });
export const pendingReferralResponse = z.object({ success: z.boolean(), message: z.string().optional() });

/** POST /api/operator/care-actions: credit a care action (operator API key). */
export const careActionRequest = z
  .object({
    idempotencyKey: z.string().trim().min(1).max(100),
    email: z.email().optional(),
    userId: z.string().min(1).max(100).optional(),
    caps: z.number().int().positive().max(100_000),
    description: z.string().trim().min(1).max(200),
  })
  .refine((v) => Boolean(v.email) !== Boolean(v.userId), { message: 'give exactly one of email and userId' });
export const careActionResponse = z.object({ credited: z.boolean(), userId: z.string(), caps: z.number().int() });
