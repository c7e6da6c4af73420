// Tells a signed-in member's open tabs that their data changed (a credit, a care action, a new
// network member). The database announces it with NOTIFY member_events '<user id>' at commit,
// which reaches every server process listening; each process fans out to its own streams.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from './database';
import type { DB } from './schema';

export const MEMBER_EVENTS_CHANNEL = 'member_events';

export const EVERY_MEMBER = '*';

/**
 * Tells every server process that these members' data changed (or everyone's: EVERY_MEMBER), as
 * part of `db`'s transaction: the notice goes out at commit, never for a write that rolled back.
 */
export async function notifyMembers(
  db: Kysely<DB>,
  who: readonly string[] | typeof EVERY_MEMBER,
): Promise<void> {
  if (who === EVERY_MEMBER) {
    await sql`SELECT pg_notify(${MEMBER_EVENTS_CHANNEL}, ${EVERY_MEMBER})`.execute(db);
    return;
  }
  const ids = [...new Set(who)];
  if (ids.length === 0) return;
  await sql`SELECT pg_notify(${MEMBER_EVENTS_CHANNEL}, u) FROM unnest(${ids}::text[]) AS u`.execute(
    db,
  );
}

/** A notice this process sends itself (see fence); never a member's id, which is a UUID. */
const FENCE_PREFIX = 'fence:';
const FENCE_TIMEOUT_MS = 2_000;

type Listener = () => void;

/** A broadcast's streams are told over this long each: 500 a second per process, about what one
 * process reads afresh (/api/me with no-cache, bench/dashboard.ts); 5,000 streams over 10 s. */
export const BROADCAST_MS_PER_STREAM = 2;
export const BROADCAST_SPREAD_MAX_MS = 30_000;

export class MemberEvents {
  readonly #listeners = new Map<string, Set<Listener>>();
  /** Told of every member's change (and '*') before the streams are; also when notices were missed. */
  readonly #observers = new Set<(userId: string) => void>();
  readonly #fences = new Map<string, () => void>();
  #unlisten: (() => Promise<void>) | undefined;
  #database: Database | undefined;

  async start(database: Database): Promise<void> {
    this.#database = database;
    this.#unlisten = await database.listen(
      MEMBER_EVENTS_CHANNEL,
      (payload) =>
        payload.startsWith(FENCE_PREFIX) ? this.#fences.get(payload)?.() : this.publish(payload),
      () => this.publish(EVERY_MEMBER),
    );
  }

  observe(observer: (userId: string) => void): void {
    this.#observers.add(observer);
  }

  /**
   * Resolves once this process has heard every notice of the transactions committed before the
   * call (PostgreSQL delivers notices in commit order): after a write, what it changed is known
   * here. Should the fence's own notice not come back in time, observers are told of everyone.
   */
  async fence(): Promise<void> {
    if (!this.#database) return;
    const nonce = `${FENCE_PREFIX}${randomUUID()}`;
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<boolean>((resolve) => {
      this.#fences.set(nonce, () => resolve(true));
      timer = setTimeout(() => resolve(false), FENCE_TIMEOUT_MS);
    });
    try {
      await sql`SELECT pg_notify(${MEMBER_EVENTS_CHANNEL}, ${nonce})`.execute(this.#database.db);
      if (!(await heard)) for (const observer of this.#observers) observer(EVERY_MEMBER);
    } catch {
      for (const observer of this.#observers) observer(EVERY_MEMBER);
    } finally {
      clearTimeout(timer);
      this.#fences.delete(nonce);
    }
  }

  async stop(): Promise<void> {
    await this.#unlisten?.();
    this.#unlisten = undefined;
  }

  subscribe(userId: string, listener: Listener): () => void {
    const set = this.#listeners.get(userId) ?? new Set<Listener>();
    set.add(listener);
    this.#listeners.set(userId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.#listeners.delete(userId);
    };
  }

  /** Payload '*' (a round published) reaches every open stream, each at its own moment within
   * BROADCAST_MS_PER_STREAM times the streams open here (at most BROADCAST_SPREAD_MAX_MS): every
   * open dashboard reads its figures again when told, and thousands at once stalled everyone's
   * requests (bench/soak.ts). A member's own change is told at once; the observers (the member
   * cache) always hear at once. */
  publish(userId: string): void {
    for (const observer of this.#observers) observer(userId);
    if (userId !== EVERY_MEMBER) {
      for (const listener of this.#listeners.get(userId) ?? []) listener();
      return;
    }
    const all = [...this.#listeners.values()].flatMap((set) => [...set]);
    const spreadMs = Math.min(all.length * BROADCAST_MS_PER_STREAM, BROADCAST_SPREAD_MAX_MS);
    for (const listener of all)
      if (all.length === 1) listener();
      // A stream closed meanwhile is told nothing: send() writes nothing to an ended stream.
      else setTimeout(listener, Math.random() * spreadMs).unref();
  }
}
