import * as z from 'zod/mini';
import { plainText } from './common';

/** The dev mailbox (outside production only): what the dev transport delivered. */
export const devMailMessage = z.object({
  id: z.int(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  links: z.array(z.string()),
  deliveredAt: z.string(),
});
export const devMailListQuery = z.object({ to: z.optional(plainText(254)) });
export const devMailListResponse = z.object({ messages: z.array(devMailMessage) });

/** POST /dev/mail: queue a test mail through the outbox (checks the mail set-up end to end). */
export const devMailSendRequest = z.object({
  to: z.email(),
  subject: plainText(200, { trim: true, min: 1 }),
  text: plainText(10_000),
});
export const devMailSendResponse = z.object({ id: z.int(), status: z.literal('queued') });
