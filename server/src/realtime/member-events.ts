// Tells a signed-in member's open tabs that their data changed (a credit, a care action, a new
// network member). The database announces it with NOTIFY member_events '<user id>' at commit,
// which reaches every server process listening; each process fans out to its own streams.
import type { Database } from '../db/database';

export const MEMBER_EVENTS_CHANNEL = 'member_events';

export const EVERY_MEMBER = '*';

type Listener = () => void;

export class MemberEvents {
  readonly #listeners = new Map<string, Set<Listener>>();
  #unlisten: (() => Promise<void>) | undefined;

  async start(database: Database): Promise<void> {
    this.#unlisten = await database.listen(MEMBER_EVENTS_CHANNEL, (userId) => this.publish(userId));
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

  /** Payload '*' (a round published) reaches every open stream. */
  publish(userId: string): void {
    const sets = userId === EVERY_MEMBER ? [...this.#listeners.values()] : [this.#listeners.get(userId) ?? []];
    for (const set of sets) for (const listener of set) listener();
  }
}
