// The transactional outbox: enqueueMail() writes a mail in the caller's transaction, so a mail of
// a rolled-back change never exists; OutboxWorker delivers due mails with retries and backoff.
// Notification mails (notification_mails, migration 0033) wait behind every due outbox mail: the
// worker takes them only when a batch has room left, and writes each when it sends it (`render`).
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Log } from '../../logging';
import { LeaderLoop } from '../../lib/leader-loop';
import type { DB } from '../db/schema';
import { logPassFailure } from '../db/unavailable';
import { NOTIFICATION_SLICE, type MailTransport, type OutgoingMail } from './transports';

export interface NewMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** How many mails wait to be sent. */
export async function pendingMailCount(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('mail_outbox')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function enqueueMail(
  trx: Kysely<DB> | Transaction<DB>,
  mail: NewMail,
): Promise<number> {
  const row = await trx
    .insertInto('mail_outbox')
    .values({
      to_address: mail.to,
      subject: mail.subject,
      text_body: mail.text,
      html_body: mail.html ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A queued notification mail: its template and figures, written when it is delivered. */
export interface QueuedNotificationMail {
  id: number;
  user_id: string;
  to: string;
  topic: 'credits' | 'rounds';
  template: string;
  params: unknown;
}

/** Writes a notification mail as it leaves, or null when there is nothing to send any more (the
 * member turned its topic off, the REME was claimed meanwhile). */
export type RenderNotification = (
  mail: QueuedNotificationMail,
) => Promise<Omit<OutgoingMail, 'id'> | null>;

type Queue = 'mail_outbox' | 'notification_mails';

export interface OutboxWorkerOptions {
  /** Writes notification mails; without it they wait. */
  render?: RenderNotification;
  pollIntervalMs?: number;
  batchSize?: number;
  /** How long a claimed mail is reserved for one worker before another may try it. */
  leaseMs?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
}

export interface DeliveryStatus {
  status: 'ok' | 'failing' | 'unknown';
  lastError: string | null;
}

/** Exponential backoff: base, 2×base, 4×base … capped at max. */
export function retryDelayMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
}

export class OutboxWorker {
  readonly #db: Kysely<DB>;
  readonly #transport: MailTransport;
  readonly #log: Log;
  readonly #opts: Required<Omit<OutboxWorkerOptions, 'render'>>;
  readonly #loop: LeaderLoop;
  readonly #render: RenderNotification | undefined;
  #started = false;
  #delivery: DeliveryStatus = { status: 'unknown', lastError: null };
  #passes = 0;

  constructor(db: Kysely<DB>, transport: MailTransport, log: Log, opts: OutboxWorkerOptions = {}) {
    this.#db = db;
    this.#transport = transport;
    this.#log = log;
    this.#render = opts.render;
    this.#opts = {
      pollIntervalMs: 1_000,
      batchSize: 10,
      leaseMs: 60_000,
      retryBaseMs: 2_000,
      retryMaxMs: 300_000,
      ...opts,
    };
    // Every process delivers: each mail is leased to one of them (deliverDue).
    this.#loop = new LeaderLoop({
      pass: () => this.#pass(),
      waitMs: () => this.#opts.pollIntervalMs,
    });
  }

  get delivery(): DeliveryStatus {
    return this.#delivery;
  }

  /** How many delivery passes the worker has completed (a test waits for more to have run). */
  get passes(): number {
    return this.#passes;
  }

  start(): void {
    this.#started = true;
    void this.#loop.start();
  }

  /** Run a pass now (e.g. right after a transaction that queued a mail commits); nothing before
   * the start. */
  wake(): void {
    if (this.#started) void this.#loop.runNow();
  }

  async stop(): Promise<void> {
    await this.#loop.stop();
  }

  async #pass(): Promise<void> {
    try {
      while (this.#loop.running && (await this.deliverDue()) > 0);
    } catch (error) {
      logPassFailure(this.#log, error, 'mail outbox pass failed');
    }
    this.#passes += 1;
  }

  /** Claims up to batchSize due mails — the outbox's first, then notification mails in the room
   * left — delivers each, and records the outcome. Returns how many it claimed. */
  async deliverDue(): Promise<number> {
    const claimed = await sql<OutgoingMail & { attempts: number }>`
      UPDATE mail_outbox
         SET attempts = attempts + 1,
             next_attempt_at = now() + make_interval(secs => ${this.#opts.leaseMs / 1000})
       WHERE id IN (SELECT id FROM mail_outbox
                     WHERE status = 'pending' AND next_attempt_at <= now()
                     ORDER BY id LIMIT ${this.#opts.batchSize}
                     FOR UPDATE SKIP LOCKED)
      RETURNING id, to_address AS "to", subject, text_body AS "text", html_body AS "html", attempts`.execute(
      this.#db,
    );
    for (const mail of claimed.rows) await this.#deliver('mail_outbox', mail);
    // Notification mails a few at a time, so an account mail asked for meanwhile waits for a few
    // of them at most, never for a whole batch.
    const room = Math.min(NOTIFICATION_SLICE, this.#opts.batchSize - claimed.rows.length);
    if (room <= 0 || this.#render === undefined) return claimed.rows.length;
    const notes = await sql<QueuedNotificationMail & { attempts: number }>`
      UPDATE notification_mails
         SET attempts = attempts + 1,
             next_attempt_at = now() + make_interval(secs => ${this.#opts.leaseMs / 1000})
       WHERE id IN (SELECT id FROM notification_mails
                     WHERE status = 'pending' AND next_attempt_at <= now()
                     ORDER BY id LIMIT ${room}
                     FOR UPDATE SKIP LOCKED)
      RETURNING id, user_id, to_address AS "to", topic, template, params, attempts`.execute(
      this.#db,
    );
    await Promise.all(notes.rows.map((note) => this.#deliverNotification(note)));
    return claimed.rows.length + notes.rows.length;
  }

  async #deliverNotification(note: QueuedNotificationMail & { attempts: number }): Promise<void> {
    let mail: Omit<OutgoingMail, 'id'> | null;
    try {
      mail = await this.#render!(note);
    } catch (error) {
      await this.#failed('notification_mails', note.id, note.attempts, error);
      return;
    }
    if (mail === null) {
      await sql`UPDATE notification_mails SET status = 'skipped', last_error = NULL
                 WHERE id = ${note.id}`.execute(this.#db);
      return;
    }
    await this.#deliver('notification_mails', { ...mail, id: note.id, attempts: note.attempts });
  }

  async #failed(queue: Queue, id: number, attempts: number, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    const delayMs = retryDelayMs(attempts, this.#opts.retryBaseMs, this.#opts.retryMaxMs);
    this.#delivery = { status: 'failing', lastError: message };
    this.#log.warn(
      { mailId: id, queue, attempts, retryInMs: delayMs, err: error },
      'mail delivery failed; will retry',
    );
    await sql`UPDATE ${sql.table(queue)}
                 SET last_error = ${message},
                     next_attempt_at = now() + make_interval(secs => ${delayMs / 1000})
               WHERE id = ${id}`.execute(this.#db);
  }

  async #deliver(queue: Queue, mail: OutgoingMail & { attempts: number }): Promise<void> {
    try {
      await this.#transport.send(
        queue === 'notification_mails' ? { ...mail, queue: 'notification' } : mail,
      );
    } catch (error) {
      await this.#failed(queue, mail.id, mail.attempts, error);
      return;
    }
    this.#delivery = { status: 'ok', lastError: null };
    if (queue === 'mail_outbox')
      await sql`UPDATE mail_outbox SET status = 'sent', sent_at = now(), last_error = NULL
                 WHERE id = ${mail.id}`.execute(this.#db);
    else
      await sql`UPDATE notification_mails
                   SET status = 'sent', sent_at = now(), last_error = NULL, subject = ${mail.subject}
                 WHERE id = ${mail.id}`.execute(this.#db);
    this.#log.info({ mailId: mail.id, queue, transport: this.#transport.kind }, 'mail delivered');
  }
}
