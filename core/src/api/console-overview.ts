// The operator console's overview (GET /api/console/overview) and mail outbox
// (GET /api/console/mail, POST /api/console/mail/:id/retry): schemas filled in by their features.
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
