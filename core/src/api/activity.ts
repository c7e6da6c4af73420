import * as z from 'zod/mini';

/** What can happen to a member's account that they are told of, in the notification centre and
 * by a mail they cannot turn off (docs/security.md#security-events):
 * - new_device: a sign-in on a device (browser) this member had not signed in on before;
 * - password_changed: the password was changed (account page) or reset (mailed link);
 * - two_factor_on, two_factor_off: two-factor sign-in turned on or off;
 * - export: the member's data was downloaded;
 * - deletion_requested, passkey_added: reserved (deletion is immediate and leaves nothing that
 *   names the member; there are no passkeys yet). */
export const SECURITY_EVENT_KINDS = [
  'new_device',
  'password_changed',
  'two_factor_on',
  'two_factor_off',
  'export',
  'deletion_requested',
  'passkey_added',
] as const;
export type SecurityEventKind = (typeof SECURITY_EVENT_KINDS)[number];

/** What happened to the member's rewards, one line each (docs/product.md#the-dashboard):
 * - joined: their own CAPs for joining;
 * - referral: a friend joined through their link (level 1, named by first name when they gave
 *   one) or through a friend's (levels 2 and 3, never named);
 * - care: CAPs an operator credited for a care action (`description` says which);
 * - conversion: care CAPs converted into REME;
 * - payout: a round made REME claimable (`reme` is what it added);
 * - claimed: a claim the community paid for arrived in the wallet (`forYou` when the community
 *   claimed for the member, "claim for me", rather than at their request);
 * - claim_failed: a claim the community was to pay for could not be sent (`description` says why);
 * - security: something happened to the account itself (`securityEvent` says what, `device` on
 *   which device: "Chrome on Android").
 * `held` credits wait for the community's check until `releaseAt`. */
export const activityItem = z.object({
  id: z.string(),
  kind: z.enum([
    'joined',
    'referral',
    'care',
    'conversion',
    'payout',
    'claimed',
    'claim_failed',
    'security',
  ]),
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
  /** claimed: made for the member by the community ("Claimed for you"). */
  forYou: z.optional(z.boolean()),
  /** security: what happened (one of SECURITY_EVENT_KINDS); null otherwise. */
  securityEvent: z.optional(z.nullable(z.enum(SECURITY_EVENT_KINDS))),
  /** security: the device it happened on, as the sessions list names it; null otherwise. */
  device: z.optional(z.nullable(z.string())),
});
export type ActivityItem = z.infer<typeof activityItem>;

/** GET /api/activity: the member's activity, newest first (at most 30), and how many of those came
 * after they last opened the notification centre (`seenAt`, null when they never did). */
export const activityResponse = z.object({
  items: z.array(activityItem),
  unread: z.int(),
  seenAt: z.nullable(z.string()),
});

/** GET /api/activity/older?beforeAt&beforeId: the page of lines older than the last one shown,
 * and whether there are more still. */
export const activityOlderQuery = z.object({
  beforeAt: z.iso.datetime(),
  beforeId: z.string().check(z.minLength(1), z.maxLength(64)),
});
export const activityOlderResponse = z.object({
  items: z.array(activityItem),
  more: z.boolean(),
});

/** POST /api/activity/seen: the member saw everything up to `upTo` (the newest line they were shown). */
export const activitySeenRequest = z.object({ upTo: z.iso.datetime() });
