// The console's mail outbox: pending, sent and failing mails (each failing one with the transport's
// error), and a retry that makes a waiting mail due now. A mail's body holds its confirmation link:
// it is never read here, let alone answered. Apart from it, the notification mails (credits and
// rounds, their own queue sent behind the outbox): listed and counted, with no action (each is
// written afresh when it is delivered, and the worker tries a failing one again on its own).
import { errorResponse } from '@crw/core';
import {
  consoleMailIdParams,
  consoleMailQuery,
  consoleMailResponse,
  consoleMailRetryResponse,
  consoleNotificationMailQuery,
  consoleNotificationMailResponse,
  MAIL_PAGE_SIZE,
  MAIL_SENT_COUNT_CAP,
  type ConsoleMail,
  type ConsoleMailItem,
  type ConsoleNotificationMail,
  type ConsoleNotificationMailItem,
  type MailFilter,
  type NotificationMailFilter,
} from '@crw/core/console';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { AppError } from '../../../app-error';
import type { DB } from '../../../infra/db/schema';
import { Snapshot } from '../../../lib/snapshot';
import type { AppServices } from '../../../services';
import { recordAudit } from '../../../domain/operators/audit';

const refusals = { 401: errorResponse, 403: errorResponse };

/** Every column the console shows: no text_body, no html_body. */
const mailColumns = [
  'id',
  'to_address',
  'subject',
  'status',
  'attempts',
  'last_error',
  'created_at',
  'next_attempt_at',
  'sent_at',
] as const;

interface MailRow {
  id: number | string;
  to_address: string;
  subject: string;
  status: 'pending' | 'sent';
  attempts: number;
  last_error: string | null;
  created_at: Date | string;
  next_attempt_at: Date | string;
  sent_at: Date | string | null;
}

const iso = (d: Date | string) => new Date(d).toISOString();

/** A waiting mail whose last attempt failed (the worker keeps last_error until it is sent). */
const isFailing = (row: { status: string; attempts: number; last_error: string | null }) =>
  row.status === 'pending' && row.attempts > 0 && row.last_error !== null;

const itemOf = (row: MailRow): ConsoleMailItem => ({
  id: Number(row.id),
  to: row.to_address,
  subject: row.subject,
  status: row.status === 'sent' ? 'sent' : isFailing(row) ? 'failing' : 'pending',
  attempts: row.attempts,
  lastError: row.last_error,
  createdAt: iso(row.created_at),
  nextAttemptAt: row.status === 'sent' ? null : iso(row.next_attempt_at),
  sentAt: row.sent_at ? iso(row.sent_at) : null,
});

type Queue = 'mail_outbox' | 'notification_mails';

/** Each status filter, for either queue (they share these columns). */
const statusWhere: Record<'failing' | 'pending' | 'sent' | 'skipped', RawBuilder<SqlBool>> = {
  failing: sql<SqlBool>`status = 'pending' AND attempts > 0 AND last_error IS NOT NULL`,
  pending: sql<SqlBool>`status = 'pending' AND (attempts = 0 OR last_error IS NULL)`,
  sent: sql<SqlBool>`status = 'sent'`,
  skipped: sql<SqlBool>`status = 'skipped'`,
};

/** The waiting mails of a queue, read from its partial index (WHERE status = 'pending'), exactly. */
async function waitingCounts(db: Kysely<DB>, queue: Queue) {
  const { rows } = await sql<{ pending: number; failing: number }>`
    SELECT count(*) FILTER (WHERE NOT (attempts > 0 AND last_error IS NOT NULL))::int AS pending,
           count(*) FILTER (WHERE attempts > 0 AND last_error IS NOT NULL)::int AS failing
      FROM ${sql.table(queue)} WHERE status = 'pending'`.execute(db);
  return { pending: Number(rows[0]?.pending ?? 0), failing: Number(rows[0]?.failing ?? 0) };
}

/** The mails of a queue in a status, counted up to MAIL_SENT_COUNT_CAP (a LIMIT inside the count):
 * the count, and whether there are more. */
async function cappedCount(
  db: Kysely<DB>,
  queue: Queue,
  status: 'sent' | 'skipped',
): Promise<[number, boolean]> {
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n
      FROM (SELECT 1 FROM ${sql.table(queue)} WHERE status = ${status}
             LIMIT ${MAIL_SENT_COUNT_CAP + 1}) s`.execute(db);
  const n = Number(rows[0]?.n ?? 0);
  return [Math.min(n, MAIL_SENT_COUNT_CAP), n > MAIL_SENT_COUNT_CAP];
}

/**
 * The counts stay cheap on an outbox of millions: the waiting mails are counted exactly from their
 * partial index (mail_outbox_due_idx); sent mails only up to MAIL_SENT_COUNT_CAP, with
 * `sentCapped` when there are more.
 */
async function mailCounts(db: Kysely<DB>): Promise<ConsoleMail['counts']> {
  const waiting = await waitingCounts(db, 'mail_outbox');
  const [sent, sentCapped] = await cappedCount(db, 'mail_outbox', 'sent');
  return { ...waiting, sent, sentCapped };
}

/** A page of the outbox, newest first, before the mail `before` when given. */
export async function mailPage(
  db: Kysely<DB>,
  status: MailFilter,
  before?: number,
): Promise<ConsoleMail> {
  let query = db
    .selectFrom('mail_outbox')
    .select(mailColumns)
    .orderBy('id', 'desc')
    .limit(MAIL_PAGE_SIZE + 1);
  if (status !== 'all') query = query.where(statusWhere[status]);
  if (before !== undefined) query = query.where('id', '<', before);
  const [rows, counts] = await Promise.all([query.execute(), mailCounts(db)]);
  const mails = rows.slice(0, MAIL_PAGE_SIZE).map(itemOf);
  return {
    mails,
    nextBefore: rows.length > MAIL_PAGE_SIZE ? mails[mails.length - 1]!.id : null,
    counts,
  };
}

/** Every column of a notification mail the console shows: never its params. */
const notificationColumns = [
  'id',
  'to_address',
  'topic',
  'template',
  'subject',
  'status',
  'attempts',
  'last_error',
  'created_at',
  'sent_at',
] as const;

/** The sent and skipped notification mails are counted at most this often. */
const DONE_COUNTS_FRESH_MS = 60_000;

type DoneCounts = Pick<
  ConsoleNotificationMail['counts'],
  'sent' | 'sentCapped' | 'skipped' | 'skippedCapped'
>;

/** Sent and skipped notification mails, each counted up to MAIL_SENT_COUNT_CAP (a round queues a
 * mail per member: the queue keeps millions). */
async function doneNotificationCounts(db: Kysely<DB>): Promise<DoneCounts> {
  const [[sent, sentCapped], [skipped, skippedCapped]] = await Promise.all([
    cappedCount(db, 'notification_mails', 'sent'),
    cappedCount(db, 'notification_mails', 'skipped'),
  ]);
  return { sent, sentCapped, skipped, skippedCapped };
}

const notificationItemOf = (row: {
  id: number | string;
  to_address: string;
  topic: 'credits' | 'rounds';
  template: string;
  subject: string | null;
  status: 'pending' | 'sent' | 'skipped';
  attempts: number;
  last_error: string | null;
  created_at: Date | string;
  sent_at: Date | string | null;
}): ConsoleNotificationMailItem => ({
  id: Number(row.id),
  to: row.to_address,
  topic: row.topic,
  template: row.template,
  subject: row.subject,
  status: row.status === 'pending' && isFailing(row) ? 'failing' : row.status,
  attempts: row.attempts,
  lastError: row.last_error,
  createdAt: iso(row.created_at),
  sentAt: row.sent_at ? iso(row.sent_at) : null,
});

/** A page of the notification mails, newest first, before the mail `before` when given. */
export async function notificationMailPage(
  db: Kysely<DB>,
  status: NotificationMailFilter,
  doneCounts: () => Promise<DoneCounts>,
  before?: number,
): Promise<ConsoleNotificationMail> {
  let query = db
    .selectFrom('notification_mails')
    .select(notificationColumns)
    .orderBy('id', 'desc')
    .limit(MAIL_PAGE_SIZE + 1);
  if (status !== 'all') query = query.where(statusWhere[status]);
  if (before !== undefined) query = query.where('id', '<', before);
  const [rows, waiting, done] = await Promise.all([
    query.execute(),
    waitingCounts(db, 'notification_mails'),
    doneCounts(),
  ]);
  const mails = rows.slice(0, MAIL_PAGE_SIZE).map(notificationItemOf);
  return {
    mails,
    nextBefore: rows.length > MAIL_PAGE_SIZE ? mails[mails.length - 1]!.id : null,
    counts: { ...waiting, ...done },
  };
}

/** Registered inside the console's operator scope (routes.ts). */
export const mailRoutes =
  (services: AppServices): FastifyPluginAsyncZod =>
  async (app) => {
    const db = services.database.db;
    const doneCounts = new Snapshot(() => doneNotificationCounts(db), {
      maxAgeMs: DONE_COUNTS_FRESH_MS,
      onError: (error) => app.log.warn({ err: error }, 'notification mail counts failed'),
    });
    app.addHook('onClose', () => doneCounts.settled());

    app.get(
      '/mail',
      {
        schema: {
          summary:
            'The mail outbox, newest first: pending, failing (with the error) and sent mails',
          querystring: consoleMailQuery,
          response: { 200: consoleMailResponse, 400: errorResponse, ...refusals },
        },
      },
      async (request) => mailPage(db, request.query.status, request.query.before),
    );

    app.get(
      '/mail/notifications',
      {
        schema: {
          summary:
            'Notification mails (credits, rounds), newest first: pending, failing, sent, skipped',
          querystring: consoleNotificationMailQuery,
          response: { 200: consoleNotificationMailResponse, 400: errorResponse, ...refusals },
        },
      },
      async (request) =>
        notificationMailPage(
          db,
          request.query.status,
          () => doneCounts.get(),
          request.query.before,
        ),
    );

    app.post(
      '/mail/:id/retry',
      {
        schema: {
          summary: 'Send a waiting mail now (409 once it was sent)',
          params: consoleMailIdParams,
          response: {
            200: consoleMailRetryResponse,
            404: errorResponse,
            409: errorResponse,
            ...refusals,
          },
        },
      },
      async (request) => {
        // The id is any text in the URL: one that is not a mail's id is simply no mail.
        const id = /^[1-9]\d{0,15}$/.test(request.params.id) ? Number(request.params.id) : NaN;
        if (!Number.isSafeInteger(id))
          throw new AppError(404, 'not_found', 'No mail with that id.');
        const due = await db
          .updateTable('mail_outbox')
          .set({ next_attempt_at: sql<Date>`now()` })
          .where('id', '=', id)
          .where('status', '=', 'pending')
          .returning(mailColumns)
          .executeTakeFirst();
        if (!due) {
          const sent = await db
            .selectFrom('mail_outbox')
            .select('id')
            .where('id', '=', id)
            .executeTakeFirst();
          if (!sent) throw new AppError(404, 'not_found', 'No mail with that id.');
          throw new AppError(409, 'conflict', 'This mail has already been sent.');
        }
        const mail = itemOf(due);
        // The recipient by member id, not address: the log outlives a deleted member's e-mail.
        const recipient = await db
          .selectFrom('profiles')
          .select('id')
          .where('email', '=', mail.to.toLowerCase())
          .executeTakeFirst();
        await recordAudit(db, request, request.operator!, 'mail.retry', String(id), {
          toMember: recipient?.id ?? null,
          subject: mail.subject,
          attempts: mail.attempts,
          lastError: mail.lastError,
        });
        services.worker.wake();
        return { mail };
      },
    );
  };
