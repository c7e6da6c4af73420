// The operator console's overview (GET /api/console/overview), mail outbox
// (GET /api/console/mail, POST /api/console/mail/:id/retry) and notification mails
// (GET /api/console/mail/notifications): schemas filled in by their features.
import * as z from 'zod/mini';

const amount = z.string().check(z.regex(/^\d+$/, 'an integer amount in base units'));
const count = z.number().check(z.int(), z.nonnegative());

/** How many days the overview's series covers (today, UTC, and the 29 before it). */
export const OVERVIEW_DAYS = 30;
/** The server computes the overview at most this often; a request between gets the last one. */
export const OVERVIEW_MAX_AGE_SECONDS = 60;

/** CAPs credited on one day (or in all), by what they were credited for. */
export const overviewCapsByKind = z.object({
  signup: count,
  referralLevel1: count,
  referralLevel2: count,
  referralLevel3: count,
  careAction: count,
});
export type OverviewCapsByKind = z.infer<typeof overviewCapsByKind>;

/** One UTC day of the series. */
export const overviewDay = z.object({
  /** The UTC day, YYYY-MM-DD. */
  date: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'a YYYY-MM-DD day')),
  /** Members who joined (registered) that day. */
  joined: count,
  /** Members who confirmed their e-mail that day (their registration credit), still members. */
  confirmed: count,
  caps: overviewCapsByKind,
  /** Claims the chain follower indexed in that day's blocks; null when the chain could not say
   * which blocks those were. */
  claims: z.nullable(count),
});
export type OverviewDay = z.infer<typeof overviewDay>;

/** GET /api/console/overview: the community's figures, computed at most once a minute. */
export const consoleOverviewResponse = z.object({
  /** When these figures were computed (ISO time). */
  asOf: z.string(),
  totals: z.object({
    members: count,
    confirmed: count,
    /** Every CAP credited, by kind (the referral levels' sum in referral). */
    capsIssued: z.object({
      signup: count,
      referral: count,
      careAction: count,
      total: count,
    }),
    /** The latest published round's total; 0 before the first. */
    remeDistributed: amount,
    /** The round the figure above is from; null before the first. */
    latestRound: z.nullable(count),
    /** All REME members have claimed from the distributor (the chain follower's index). */
    remeClaimed: amount,
  }),
  /** The last OVERVIEW_DAYS days, oldest first, today last. */
  days: z.array(overviewDay),
  /** Read from the chain when the figures were computed; null when it did not answer in time. */
  balances: z.object({
    treasuryAddress: z.string(),
    treasuryReme: z.nullable(amount),
    treasuryEth: z.nullable(amount),
    distributorAddress: z.string(),
    distributorReme: z.nullable(amount),
    /** Null when sponsored claims are off (no relayer). */
    relayerAddress: z.nullable(z.string()),
    relayerEth: z.nullable(amount),
  }),
});
export type ConsoleOverview = z.infer<typeof consoleOverviewResponse>;

/** The console's mail outbox. A mail is `failing` while it waits to be sent after a failed attempt
 * (pending, attempts > 0, last_error set), `pending` while it waits otherwise, `sent` once sent. */
export const MAIL_STATUSES = ['pending', 'failing', 'sent'] as const;
export const MAIL_FILTERS = ['all', ...MAIL_STATUSES] as const;
export type MailFilter = (typeof MAIL_FILTERS)[number];
export const MAIL_PAGE_SIZE = 50;
/** The sent count is counted up to this many (the outbox keeps every mail ever sent). */
export const MAIL_SENT_COUNT_CAP = 10_000;

const mailId = z.coerce
  .number()
  .check(z.refine((n: number) => Number.isSafeInteger(n) && n > 0, 'a mail id'));

/** GET /api/console/mail: newest first, 50 a page, the next page before the last mail's id. */
export const consoleMailQuery = z.object({
  status: z._default(z.enum(MAIL_FILTERS), 'all'),
  before: z.optional(mailId),
});

/** POST /api/console/mail/:id/retry: any text, so an id that is no mail's is a 404, not a 400. */
export const consoleMailIdParams = z.object({ id: z.string().check(z.maxLength(100)) });

/** One outbox mail as the console shows it: never its body (it holds confirmation links). */
export const consoleMailItem = z.object({
  id: z.number(),
  to: z.string(),
  subject: z.string(),
  status: z.enum(MAIL_STATUSES),
  attempts: z.number(),
  lastError: z.nullable(z.string()),
  createdAt: z.string(),
  /** When the worker tries it next (null once sent). */
  nextAttemptAt: z.nullable(z.string()),
  sentAt: z.nullable(z.string()),
});
export type ConsoleMailItem = z.infer<typeof consoleMailItem>;

export const consoleMailResponse = z.object({
  mails: z.array(consoleMailItem),
  nextBefore: z.nullable(z.number()),
  /** pending and failing are exact (the pending mails' index); sent is capped at
   * MAIL_SENT_COUNT_CAP, and sentCapped says there are more. */
  counts: z.object({
    pending: z.number(),
    failing: z.number(),
    sent: z.number(),
    sentCapped: z.boolean(),
  }),
});
export type ConsoleMail = z.infer<typeof consoleMailResponse>;

/** POST /api/console/mail/:id/retry: the mail, due now. */
export const consoleMailRetryResponse = z.object({ mail: consoleMailItem });

/** The console's notification mails (GET /api/console/mail/notifications): the queue of mails
 * about credits and rounds, apart from the outbox's account mails. A mail is written when it is
 * sent (its subject is null until then); `skipped` when the member turned its topic off meanwhile
 * (or it no longer applies); `failing` while it waits after a failed attempt. */
export const NOTIFICATION_MAIL_STATUSES = ['pending', 'failing', 'sent', 'skipped'] as const;
export const NOTIFICATION_MAIL_FILTERS = ['all', ...NOTIFICATION_MAIL_STATUSES] as const;
export type NotificationMailFilter = (typeof NOTIFICATION_MAIL_FILTERS)[number];
export const NOTIFICATION_TOPICS = ['credits', 'rounds'] as const;
/** The notification mails' templates (server/src/domain/notifications/messages.ts). */
export type NotificationTemplate = 'credit' | 'round' | 'reminder' | 'claimed-for-you' | 'digest';

export const consoleNotificationMailQuery = z.object({
  status: z._default(z.enum(NOTIFICATION_MAIL_FILTERS), 'all'),
  before: z.optional(mailId),
});

/** One notification mail as the console shows it: never its figures (params) or its body. */
export const consoleNotificationMailItem = z.object({
  id: z.number(),
  to: z.string(),
  topic: z.enum(NOTIFICATION_TOPICS),
  /** One of NOTIFICATION_TEMPLATES; any other text is shown as it is. */
  template: z.string(),
  /** As written when it was sent; null before. */
  subject: z.nullable(z.string()),
  status: z.enum(NOTIFICATION_MAIL_STATUSES),
  attempts: z.number(),
  lastError: z.nullable(z.string()),
  createdAt: z.string(),
  sentAt: z.nullable(z.string()),
});
export type ConsoleNotificationMailItem = z.infer<typeof consoleNotificationMailItem>;

export const consoleNotificationMailResponse = z.object({
  mails: z.array(consoleNotificationMailItem),
  nextBefore: z.nullable(z.number()),
  /** pending and failing are exact (the waiting mails' index); sent and skipped are counted up to
   * MAIL_SENT_COUNT_CAP each, `capped` saying there are more, and at most once a minute. */
  counts: z.object({
    pending: z.number(),
    failing: z.number(),
    sent: z.number(),
    sentCapped: z.boolean(),
    skipped: z.number(),
    skippedCapped: z.boolean(),
  }),
});
export type ConsoleNotificationMail = z.infer<typeof consoleNotificationMailResponse>;
