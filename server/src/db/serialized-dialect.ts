// PGlite is one database session: two transactions interleaving on it corrupt each other. This
// dialect wrapper makes the driver behave like a pool of exactly one connection, so a transaction
// holds the session until it ends and every other query waits its turn.
import type { DatabaseConnection, Dialect, Driver, TransactionSettings } from 'kysely';

/** A FIFO lock; run() holds it for the duration of fn. */
export class SessionLock {
  #tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const ready = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => held);
    return ready;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await fn();
    } finally {
      release();
    }
  }
}

class SerializedDriver implements Driver {
  readonly #inner: Driver;
  readonly #lock: SessionLock;
  readonly #releases = new Map<DatabaseConnection, () => void>();

  constructor(inner: Driver, lock: SessionLock) {
    this.#inner = inner;
    this.#lock = lock;
  }

  init(): Promise<void> {
    return this.#inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.#lock.acquire();
    try {
      const connection = await this.#inner.acquireConnection();
      this.#releases.set(connection, release);
      return connection;
    } catch (error) {
      release();
      throw error;
    }
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    try {
      await this.#inner.releaseConnection(connection);
    } finally {
      this.#releases.get(connection)?.();
      this.#releases.delete(connection);
    }
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.#inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.rollbackTransaction(connection);
  }

  destroy(): Promise<void> {
    return this.#lock.run(() => this.#inner.destroy());
  }
}

export function serializedDialect(inner: Dialect, lock: SessionLock): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createDriver: () => new SerializedDriver(inner.createDriver(), lock),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
  };
}
