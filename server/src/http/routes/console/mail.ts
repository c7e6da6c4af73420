// The console's mail outbox: pending, sent and failing mails (each failing one with the transport's
// error), and a retry that makes a waiting mail due now. A mail's body holds its confirmation link:
// it is never read here, let alone answered.
import { errorResponse } from '@crw/core';
import {
  consoleMailIdParams,
  consoleMailQuery,
  consoleMailResponse,
  consoleMailRetryResponse,
  MAIL_PAGE_SIZE,
  MAIL_SENT_COUNT_CAP,
  type ConsoleMail,
  type ConsoleMailItem,
  type MailFilter,
} from '@crw/core/console';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { AppError } from '../../../app-error';
import type { DB } from '../../../infra/db/schema';
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
const isFailing = (row: Pick<MailRow, 'status' | 'attempts' | 'last_error'>) =>
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

type Where = (eb: ExpressionBuilder<DB, 'mail_outbox'>) => Expression<SqlBool>;
const failingWhere: Where = (eb) =>
  eb.and([eb('status', '=', 'pending'), eb('attempts', '>', 0), eb('last_error', 'is not', null)]);
const filters: Record<Exclude<MailFilter, 'all'>, Where> = {
  failing: failingWhere,
  pending: (eb) =>
    eb.and([
      eb('status', '=', 'pending'),
      eb.or([eb('attempts', '=', 0), eb('last_error', 'is', null)]),
    ]),
  sent: (eb) => eb('status', '=', 'sent'),
};

/**
 * The counts stay cheap on an outbox of millions: the waiting mails are read from their partial
 * index (mail_outbox_due_idx, WHERE status = 'pending') and counted exactly; sent mails are counted
 * only up to MAIL_SENT_COUNT_CAP (a LIMIT inside the count), with `sentCapped` when there are more.
 */
async function mailCounts(db: Kysely<DB>): Promise<ConsoleMail['counts']> {
  const waiting = await sql<{ pending: number; failing: number }>`
    SELECT count(*) FILTER (WHERE NOT (attempts > 0 AND last_error IS NOT NULL))::int AS pending,
           count(*) FILTER (WHERE attempts > 0 AND last_error IS NOT NULL)::int AS failing
      FROM mail_outbox WHERE status = 'pending'`.execute(db);
  const sent = await sql<{ n: number }>`
    SELECT count(*)::int AS n
      FROM (SELECT 1 FROM mail_outbox WHERE status = 'sent' LIMIT ${MAIL_SENT_COUNT_CAP + 1}) s`.execute(
    db,
  );
  const sentCount = Number(sent.rows[0]?.n ?? 0);
  return {
    pending: Number(waiting.rows[0]?.pending ?? 0),
    failing: Number(waiting.rows[0]?.failing ?? 0),
    sent: Math.min(sentCount, MAIL_SENT_COUNT_CAP),
    sentCapped: sentCount > MAIL_SENT_COUNT_CAP,
  };
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
  if (status !== 'all') query = query.where(filters[status]);
  if (before !== undefined) query = query.where('id', '<', before);
  const [rows, counts] = await Promise.all([query.execute(), mailCounts(db)]);
  const mails = rows.slice(0, MAIL_PAGE_SIZE).map(itemOf);
  return {
    mails,
    nextBefore: rows.length > MAIL_PAGE_SIZE ? mails[mails.length - 1]!.id : null,
    counts,
  };
}

/** Registered inside the console's operator scope (routes.ts). */
export const mailRoutes =
  (services: AppServices): FastifyPluginAsyncZod =>
  async (app) => {
    const db = services.database.db;

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
