// What /api/me answers (polled every 10 s by every open dashboard) changes only when a notice on
// member_events says so: a credit, a care action, a referral, the chain follower seeing the
// member's wallet change, a new round ('*'), a saved wallet. So each process keeps the member's row
// from its last read and drops it when that notice arrives — the same notice that tells the
// member's open tabs to refresh. A write answered by this process waits until the notices it
// caused have arrived here (MemberEvents.fence), so a member reads their own writes; a reader that
// overlapped a notice does not keep what it read. MEMBER_CACHE_SECONDS bounds how long a row is
// kept whatever happens; the follower's progress (block, age) is read apart, at most once a second
// (at once after a pass of the follower in this process).
import type { Kysely } from 'kysely';
import type { DB } from '../../infra/db/schema';
import { EVERY_MEMBER } from '../../infra/db/member-notices';

export class MemberCache<T> {
  readonly #entries = new Map<string, { value: T; until: number }>();
  /** Counts the notices heard: a read that overlapped one is not kept. */
  #epoch = 0;

  constructor(
    readonly lifetimeMs: number,
    readonly maxEntries = 100_000,
  ) {}

  get enabled(): boolean {
    return this.lifetimeMs > 0;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(userId: string, now = Date.now()): T | undefined {
    const entry = this.#entries.get(userId);
    if (entry && entry.until <= now) {
      this.#entries.delete(userId);
      return undefined;
    }
    return entry?.value;
  }

  /** Call before reading the database; pass it to `keep` with what was read. */
  epoch(): number {
    return this.#epoch;
  }

  keep(userId: string, value: T, epochBeforeRead: number, now = Date.now()): void {
    if (!this.enabled || epochBeforeRead !== this.#epoch) return;
    this.#entries.delete(userId);
    while (this.#entries.size >= this.maxEntries)
      this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(userId, { value, until: now + this.lifetimeMs });
  }

  changed(userId: string): void {
    this.#epoch++;
    if (userId === EVERY_MEMBER) this.#entries.clear();
    else this.#entries.delete(userId);
  }
}

export interface FollowerProgress {
  block_number: number | null;
  synced_at: Date | string | null;
  last_error: string | null;
  /** The round the follower follows (the notices' pass starts when it changes). */
  round_index: number;
}

/** The chain follower's progress, read at most once per `maxAgeMs` however many ask (one query in flight). */
export class FollowerProgressReader {
  #last: { at: number; value: FollowerProgress | undefined } | undefined;
  #reading: Promise<FollowerProgress | undefined> | undefined;
  /** A read begun before an invalidation is not kept. */
  #generation = 0;

  constructor(
    readonly db: Kysely<DB>,
    readonly maxAgeMs = 1_000,
  ) {}

  /** The follower in this process just recorded a pass: the next read asks the database. */
  invalidate(): void {
    this.#generation++;
    this.#last = undefined;
    this.#reading = undefined;
  }

  async read(now = Date.now()): Promise<FollowerProgress | undefined> {
    if (this.#last && now - this.#last.at < this.maxAgeMs) return this.#last.value;
    if (this.#reading) return this.#reading;
    const generation = this.#generation;
    const reading = this.db
      .selectFrom('chain_follower_state')
      .select(['block_number', 'synced_at', 'last_error', 'round_index'])
      .executeTakeFirst()
      .then((value) => {
        if (generation === this.#generation) this.#last = { at: Date.now(), value };
        return value;
      })
      .finally(() => {
        if (this.#reading === reading) this.#reading = undefined;
      });
    this.#reading = reading;
    return reading;
  }
}
