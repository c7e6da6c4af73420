import { z } from 'zod';

/** The dev mailbox (outside production only): what the dev transport delivered. */
export const devMailMessage = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  links: z.array(z.string()),
  deliveredAt: z.string(),
});
export const devMailListQuery = z.object({ to: z.string().optional() });
export const devMailListResponse = z.object({ messages: z.array(devMailMessage) });

/** POST /dev/mail: queue a test mail through the outbox (checks the mail set-up end to end). */
export const devMailSendRequest = z.object({
  to: z.email(),
  subject: z.string().trim().min(1).max(200),
  text: z.string().max(10_000),
});
export const devMailSendResponse = z.object({ id: z.number().int(), status: z.literal('queued') });
