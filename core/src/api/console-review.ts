// The operator console's review queue (/api/console/review): joinings whose rewards are held,
// flagged ones first, with the signals each raised; release or void one, a network's or a
// referrer's, with a note (docs/operations.md#reviewing-held-rewards).
import * as z from 'zod/mini';
import { plainText } from './common';

export const reviewQueueResponse = z.object({
  /** The hold every new credit gets (0: none), and the policy's other figures. */
  holdHours: z.number(),
  subjects: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      email: z.string(),
      joinedAt: z.string(),
      /** The sign-up's network (an IPv4 /24 or IPv6 /48), while it is kept. */
      network: z.nullable(z.string()),
      referrer: z.nullable(z.object({ id: z.string(), name: z.string() })),
      flags: z.array(
        z.object({
          signal: z.string(),
          weight: z.number(),
          reason: z.string(),
          detail: z.string(),
        }),
      ),
      /** True: waits for an operator. False: released by itself at releaseAt. */
      flagged: z.boolean(),
      releaseAt: z.string(),
      credits: z.array(
        z.object({
          recipientId: z.string(),
          recipientName: z.string(),
          kind: z.enum(['signup', 'referral']),
          level: z.nullable(z.number()),
          caps: z.number(),
        }),
      ),
    }),
  ),
});
export type ReviewQueue = z.infer<typeof reviewQueueResponse>;
export type ReviewSubject = ReviewQueue['subjects'][number];

/** POST /api/console/review/decide: exactly one of subjects, network or referrer. */
export const reviewDecisionRequest = z
  .object({
    outcome: z.enum(['release', 'void']),
    note: plainText(500, { trim: true, min: 1 }),
    subjects: z.optional(
      z.array(z.string().check(z.maxLength(64))).check(z.minLength(1), z.maxLength(500)),
    ),
    network: z.optional(plainText(64)),
    referrer: z.optional(plainText(64)),
  })
  .check(
    z.refine(
      (body) =>
        [body.subjects, body.network, body.referrer].filter((v) => v !== undefined).length === 1,
      'name exactly one of subjects, network or referrer',
    ),
  );
export type ReviewDecision = z.input<typeof reviewDecisionRequest>;

export const reviewDecisionResponse = z.object({
  /** The joinings and credits settled. */
  subjects: z.number(),
  credits: z.number(),
});
