// The member's notification choices (the account page) and the one-click unsubscribe of a
// notification mail (docs/product.md#notifications).
import * as z from 'zod/mini';

export const mailCreditsChoices = ['instant', 'daily', 'weekly', 'off'] as const;
export type MailCreditsChoice = (typeof mailCreditsChoices)[number];

/** GET /api/notifications/settings: mails about credits (each, a digest, none), mails about
 * rounds, "claim for me"; whether the community pays claim fees at all (claim for me needs it). */
export const notificationSettingsResponse = z.object({
  credits: z.enum(mailCreditsChoices),
  rounds: z.boolean(),
  claimForMe: z.boolean(),
  claimForMeAvailable: z.boolean(),
});

/** PUT /api/notifications/settings: what changes. */
export const notificationSettingsRequest = z.object({
  credits: z.optional(z.enum(mailCreditsChoices)),
  rounds: z.optional(z.boolean()),
  claimForMe: z.optional(z.boolean()),
});
export type NotificationSettingsRequest = z.infer<typeof notificationSettingsRequest>;

/** POST /api/unsubscribe?m&t&v&s: the link of a notification mail (no sign-in). */
export const unsubscribeQuerySchema = z.object({
  m: z.string().check(z.minLength(1), z.maxLength(64)),
  t: z.enum(['credits', 'rounds']),
  v: z.coerce.number().check(z.int(), z.gte(0), z.lte(2_147_483_647)),
  s: z.string().check(z.minLength(1), z.maxLength(64)),
});

export const unsubscribeResponse = z.object({ topic: z.enum(['credits', 'rounds']) });
