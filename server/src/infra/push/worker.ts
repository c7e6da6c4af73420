// Delivers queued pushes (push_deliveries, migration 0034) in every process: each pass leases due
// rows with FOR UPDATE SKIP LOCKED, as the mail outbox does, so no two processes send the same
// push; writes each with `render` as it leaves, sends it, and records the outcome. A subscription
// the push service reports gone (404, 410) is deleted with its waiting pushes; any other failure is
// retried with backoff until the push is older than its time to live, then given up.
import { logPassFailure } from '../db/unavailable';
import { sql, type Kysely } from 'kysely';
import type { Log } from '../../logging';
import { LeaderLoop } from '../../lib/leader-loop';
import type { DB, NotificationTopic } from '../db/schema';
import { retryDelayMs } from '../mail/outbox';
import { sendPush, type PushTarget, type SendOptions } from './send';
import type { Vapid } from './vapid';

/** A queued push as the worker leases it. */
export interface QueuedPush {
  id: number;
  user_id: string;
  topic: NotificationTopic;
  template: string;
  params: unknown;
}

/** What the service worker shows (web/src/sw.ts): a title, one line, the app path it opens. */
export interface PushPayload {
  title: string;
  body: string;
  url: string;
}

/** Writes a push as it leaves, or null when there is nothing to say any more. */
export type RenderPush = (push: QueuedPush) => Promise<PushPayload | null>;

export interface PushWorkerOptions {
  pollIntervalMs?: number;
  batchSize?: number;
  leaseMs?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** How long a push is worth sending (the push service's TTL; older ones are given up). */
  ttlSeconds?: number;
  /** Outside production: endpoints on http://127.0.0.1 (a local push service) are allowed. */
  allowLocal?: boolean;
  /** Finished pushes are kept this long, then deleted. */
  keepDays?: number;
}

interface Leased extends QueuedPush, PushTarget {
  subscription_id: number;
  attempts: number;
  wanted: boolean;
}

const HOUSEKEEPING_EVERY_MS = 60_000;

export class PushWorker {
  readonly #db: Kysely<DB>;
  readonly #vapid: Vapid;
  readonly #render: RenderPush;
  readonly #log: Log;
  readonly #opts: Required<PushWorkerOptions>;
  readonly #loop: LeaderLoop;
  #keptAt = 0;

  constructor(
    db: Kysely<DB>,
    vapid: Vapid,
    render: RenderPush,
    log: Log,
    opts: PushWorkerOptions = {},
  ) {
    this.#db = db;
    this.#vapid = vapid;
    this.#render = render;
    this.#log = log;
    this.#opts = {
      pollIntervalMs: 1_000,
      batchSize: 20,
      leaseMs: 60_000,
      retryBaseMs: 2_000,
      retryMaxMs: 300_000,
      ttlSeconds: 86_400,
      allowLocal: false,
      keepDays: 7,
      ...opts,
    };
    this.#loop = new LeaderLoop({
      pass: () => this.#pass(),
      waitMs: () => this.#opts.pollIntervalMs,
    });
  }

  /** The public key browsers subscribe with (applicationServerKey). */
  get publicKey(): string {
    return this.#vapid.publicKey;
  }

  start(): void {
    void this.#loop.start();
  }

  /** No pass after this; resolves once the pass under way ended. */
  stop(): Promise<void> {
    return this.#loop.stop();
  }

  async #pass(): Promise<void> {
    try {
      // Pass after pass while there was anything to send (a round's pushes come in thousands).
      for (let leased = 1; leased > 0 && this.#loop.running;) leased = await this.deliverDue();
      if (Date.now() - this.#keptAt > HOUSEKEEPING_EVERY_MS) {
        this.#keptAt = Date.now();
        await this.giveUpExpired();
      }
    } catch (error) {
      logPassFailure(this.#log, error, 'push delivery pass failed');
    }
  }

  /** Marks pushes past their time to live as expired (the lease never takes them), and deletes
   * finished ones older than keepDays. */
  async giveUpExpired(): Promise<void> {
    await sql`UPDATE push_deliveries SET status = 'expired'
               WHERE status = 'pending'
                 AND created_at < now() - make_interval(secs => ${this.#opts.ttlSeconds})`.execute(
      this.#db,
    );
    await sql`DELETE FROM push_deliveries
               WHERE status <> 'pending'
                 AND created_at < now() - make_interval(days => ${this.#opts.keepDays})`.execute(
      this.#db,
    );
  }

  /** Leases up to batchSize due pushes still within their time to live, sends each and records
   * the outcome. Returns how many it leased. */
  async deliverDue(): Promise<number> {
    const { rows } = await sql<Leased>`
      UPDATE push_deliveries d
         SET attempts = d.attempts + 1,
             next_attempt_at = now() + make_interval(secs => ${this.#opts.leaseMs / 1000})
        FROM push_subscriptions s
       WHERE s.id = d.subscription_id
         AND d.id IN (SELECT id FROM push_deliveries
                       WHERE status = 'pending' AND next_attempt_at <= now()
                         AND created_at >= now() - make_interval(secs => ${this.#opts.ttlSeconds})
                       ORDER BY id LIMIT ${this.#opts.batchSize}
                       FOR UPDATE SKIP LOCKED)
      RETURNING d.id, d.subscription_id, d.topic, d.template, d.params, d.attempts,
                s.user_id, s.endpoint, s.p256dh, s.auth, d.topic = ANY (s.topics) AS wanted`.execute(
      this.#db,
    );
    await Promise.all(rows.map((push) => this.#deliver(push)));
    return rows.length;
  }

  async #deliver(push: Leased): Promise<void> {
    try {
      // A topic the member turned off on that device since the push was queued.
      const payload = push.wanted ? await this.#render(push) : null;
      if (payload === null) {
        await this.#finish(push.id, 'skipped');
        return;
      }
      const options: SendOptions = {
        ttlSeconds: this.#opts.ttlSeconds,
        allowLocal: this.#opts.allowLocal,
      };
      const outcome = await sendPush(push, JSON.stringify(payload), this.#vapid, options);
      if (outcome === 'gone') {
        await sql`DELETE FROM push_subscriptions WHERE id = ${push.subscription_id}`.execute(
          this.#db,
        );
        this.#log.info({ pushId: push.id }, 'push subscription gone: removed');
        return;
      }
      await this.#finish(push.id, 'sent');
      await sql`UPDATE push_subscriptions SET last_success_at = now()
                 WHERE id = ${push.subscription_id}`.execute(this.#db);
    } catch (error) {
      await this.#failed(push, error);
    }
  }

  async #finish(id: number, status: 'sent' | 'skipped'): Promise<void> {
    await sql`UPDATE push_deliveries
                 SET status = ${status}, last_error = NULL,
                     sent_at = CASE WHEN ${status} = 'sent' THEN now() END
               WHERE id = ${id}`.execute(this.#db);
  }

  async #failed(push: Leased, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    const delayMs = retryDelayMs(push.attempts, this.#opts.retryBaseMs, this.#opts.retryMaxMs);
    this.#log.warn(
      { pushId: push.id, attempts: push.attempts, retryInMs: delayMs, err: message },
      'push delivery failed; will retry',
    );
    await sql`UPDATE push_deliveries
                 SET last_error = ${message.slice(0, 500)},
                     next_attempt_at = now() + make_interval(secs => ${delayMs / 1000})
               WHERE id = ${push.id}`.execute(this.#db);
  }
}
