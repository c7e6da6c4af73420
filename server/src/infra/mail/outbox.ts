// The transactional outbox: enqueueMail() writes a mail in the caller's transaction, so a mail of
// a rolled-back change never exists; OutboxWorker delivers due mails with retries and backoff.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Log } from '../../logging';
import { LeaderLoop } from '../../lib/leader-loop';
import type { DB } from '../db/schema';
import type { MailTransport, OutgoingMail } from './transports';

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

export interface OutboxWorkerOptions {
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
  readonly #opts: Required<OutboxWorkerOptions>;
  readonly #loop: LeaderLoop;
  #started = false;
  #delivery: DeliveryStatus = { status: 'unknown', lastError: null };
  #passes = 0;

  constructor(db: Kysely<DB>, transport: MailTransport, log: Log, opts: OutboxWorkerOptions = {}) {
    this.#db = db;
    this.#transport = transport;
    this.#log = log;
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
      while (this.#loop.running && (await this.deliverDue()) === this.#opts.batchSize);
    } catch (error) {
      this.#log.error({ err: error }, 'mail outbox pass failed');
    }
    this.#passes += 1;
  }

  /** Claims up to batchSize due mails, delivers each, and records the outcome. Returns how many it claimed. */
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
    for (const mail of claimed.rows) await this.#deliver(mail);
    return claimed.rows.length;
  }

  async #deliver(mail: OutgoingMail & { attempts: number }): Promise<void> {
    try {
      await this.#transport.send(mail);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const delayMs = retryDelayMs(mail.attempts, this.#opts.retryBaseMs, this.#opts.retryMaxMs);
      this.#delivery = { status: 'failing', lastError: message };
      this.#log.warn(
        { mailId: mail.id, attempts: mail.attempts, retryInMs: delayMs, err: error },
        'mail delivery failed; will retry',
      );
      await this.#db
        .updateTable('mail_outbox')
        .set({
          last_error: message,
          next_attempt_at: sql<Date>`now() + make_interval(secs => ${delayMs / 1000})`,
        })
        .where('id', '=', mail.id)
        .execute();
      return;
    }
    this.#delivery = { status: 'ok', lastError: null };
    await this.#db
      .updateTable('mail_outbox')
      .set({ status: 'sent', sent_at: sql<Date>`now()`, last_error: null })
      .where('id', '=', mail.id)
      .execute();
    this.#log.info({ mailId: mail.id, transport: this.#transport.kind }, 'mail delivered');
  }
}
