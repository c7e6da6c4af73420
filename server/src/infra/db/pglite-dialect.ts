// Kysely on PGlite. PGlite is one database session: two transactions interleaving on it corrupt
// each other, so this driver behaves like a pool of exactly one connection — a transaction holds
// the session from BEGIN to COMMIT/ROLLBACK and every other query waits its turn (FIFO).
import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
} from 'kysely';
import { copyOf, type CopyResult } from './copy';

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

class PgliteConnection implements DatabaseConnection {
  constructor(
    readonly pglite: PGlite,
    readonly release: () => void,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const copy = copyOf(query.sql, query.parameters);
    if (copy) {
      // PGlite's COPY reads its rows from the blob passed beside the statement.
      const loaded = await this.pglite.query(
        query.sql.replace(/ FROM STDIN$/, " FROM '/dev/blob'"),
        [],
        { blob: new Blob([...copy.chunks]) },
      );
      return { rows: [{ copied: loaded.affectedRows ?? 0 } satisfies CopyResult as R] };
    }
    const result = await this.pglite.query<R>(query.sql, [...query.parameters]);
    // Kysely reads affected rows from numAffectedRows (PGlite calls it affectedRows).
    return {
      rows: result.rows,
      ...(result.affectedRows !== undefined
        ? { numAffectedRows: BigInt(result.affectedRows) }
        : {}),
    };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite does not stream query results');
  }
}

class PgliteDriver implements Driver {
  constructor(
    private readonly pglite: PGlite,
    private readonly lock: SessionLock,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new PgliteConnection(this.pglite, await this.lock.acquire());
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PgliteConnection).release();
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('BEGIN'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('COMMIT'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('ROLLBACK'));
  }

  async destroy(): Promise<void> {
    await this.lock.run(() => this.pglite.close());
  }
}

export function pgliteDialect(pglite: PGlite, lock: SessionLock): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new PgliteDriver(pglite, lock),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}
