// Work that must happen once across server processes (the chain follower) runs in the process
// holding a lock: on PostgreSQL a session advisory lock on a connection of its own, which the
// server releases when that connection ends (a process that dies lets another take over); on
// PGlite, which only one process opens, a lock within this process.
import pg from 'pg';

export interface LeaderLock {
  /** True while this holder has the lock (false again once its connection is lost). */
  readonly held: boolean;
  /** Takes the lock if nobody holds it; true when this holder has it. Never throws. */
  tryAcquire(): Promise<boolean>;
  release(): Promise<void>;
}

/** A session advisory lock held on a dedicated connection (a pooled one would go to other queries). */
export function postgresLeaderLock(url: string, key: number): LeaderLock {
  let client: pg.Client | undefined;
  let held = false;
  const drop = (lost: pg.Client) => {
    if (client !== lost) return;
    client = undefined;
    held = false;
  };
  return {
    get held() {
      return held;
    },
    async tryAcquire() {
      if (held) return true;
      try {
        if (!client) {
          const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
          next.on('error', () => drop(next));
          next.on('end', () => drop(next));
          client = next;
          await next.connect();
        }
        const { rows } = await client.query<{ locked: boolean }>(
          'SELECT pg_try_advisory_lock($1) AS locked',
          [key],
        );
        held = rows[0]?.locked === true;
      } catch {
        const failed = client;
        if (failed) drop(failed);
        await failed?.end().catch(() => undefined);
      }
      return held;
    },
    async release() {
      const current = client;
      client = undefined;
      held = false;
      // Ending the session releases its advisory locks.
      await current?.end().catch(() => undefined);
    },
  };
}

const heldInProcess = new WeakMap<object, Set<number>>();

/** PGlite: one process opens the database, so the lock only has to be unique within it. */
export function processLeaderLock(owner: object, key: number): LeaderLock {
  let held = false;
  const keys = () => {
    const set = heldInProcess.get(owner) ?? new Set<number>();
    heldInProcess.set(owner, set);
    return set;
  };
  return {
    get held() {
      return held;
    },
    async tryAcquire() {
      if (!held && !keys().has(key)) {
        keys().add(key);
        held = true;
      }
      return held;
    },
    async release() {
      if (held) keys().delete(key);
      held = false;
    },
  };
}

/** How long a leader's stop waits for the work under way (lib/leader-loop.ts): a hung node must not
 * hold up a shutdown, and work finishing later records nothing twice, since what it writes is keyed
 * (follower, relayer). */
export const STOP_WAIT_MS = 3_000;
