import * as z from 'zod/mini';

/** What happened to the member's rewards, one line each (docs/product.md#the-dashboard):
 * - joined: their own CAPs for joining;
 * - referral: a friend joined through their link (level 1, named by first name when they gave
 *   one) or through a friend's (levels 2 and 3, never named);
 * - care: CAPs an operator credited for a care action (`description` says which);
 * - conversion: care CAPs converted into REME;
 * - payout: a round made REME claimable (`reme` is what it added);
 * - claimed: a claim the community paid for arrived in the wallet.
 * `held` credits wait for the community's check until `releaseAt`. */
export const activityItem = z.object({
  id: z.string(),
  kind: z.enum(['joined', 'referral', 'care', 'conversion', 'payout', 'claimed']),
  at: z.string(),
  caps: z.nullable(z.int()),
  /** REME in base units, or null. */
  reme: z.nullable(z.string()),
  level: z.nullable(z.int()),
  friend: z.nullable(z.string()),
  description: z.nullable(z.string()),
  round: z.nullable(z.int()),
  held: z.boolean(),
  releaseAt: z.nullable(z.string()),
});
export type ActivityItem = z.infer<typeof activityItem>;

/** GET /api/activity: the member's activity, newest first (at most 30), and how many of those came
 * after they last opened the notification centre (`seenAt`, null when they never did). */
export const activityResponse = z.object({
  items: z.array(activityItem),
  unread: z.int(),
  seenAt: z.nullable(z.string()),
});

/** POST /api/activity/seen: the member saw everything up to `upTo` (the newest line they were shown). */
export const activitySeenRequest = z.object({ upTo: z.iso.datetime() });
