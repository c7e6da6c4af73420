// One handle over either database the product runs on: PGlite embedded under DATA_DIR, or a
// PostgreSQL server via DATABASE_URL. Both speak the same SQL; callers use `db` (Kysely).
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, type Dialect } from 'kysely';
import pg from 'pg';
import type { DB } from './schema';
import { CopyingClient } from './copy';
import { postgresLeaderLock, processLeaderLock, type LeaderLock } from './leader-lock';
import { pgliteDialect, SessionLock } from './pglite-dialect';
import {
  DEFAULT_LISTENER_HEARTBEAT,
  listenPostgres,
  type ListenerHeartbeat,
} from './postgres-listener';

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/** A raw session for multi-statement scripts (migrations): one connection, in order. */
export interface RawSession {
  exec(sql: string): Promise<void>;
  query<R>(sql: string, params?: unknown[]): Promise<R[]>;
}

export interface Database {
  kind: 'pglite' | 'postgres';
  /** PostgreSQL's connection URL (for its own tools: pg_dump); undefined on PGlite. */
  url?: string;
  db: Kysely<DB>;
  /** The dialect `db` uses, for libraries that build their own Kysely (better-auth). */
  dialect: Dialect;
  withSession<T>(fn: (session: RawSession) => Promise<T>): Promise<T>;
  /** LISTEN on a channel; the handler gets each NOTIFY payload. Resolves to an unlisten function.
   * `onGap` runs when the listening connection is lost (or stops hearing its own heartbeat on
   * PostgreSQL: postgres-listener.ts) and again once it is made again: notices sent meanwhile
   * were missed. */
  listen(
    channel: string,
    handler: (payload: string) => void,
    onGap?: () => void,
  ): Promise<() => Promise<void>>;
  /** A lock one holder at a time has across every process on this database (leader-lock.ts). */
  leaderLock(key: number): LeaderLock;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export type DatabaseTarget =
  | {
      kind: 'pglite';
      dataDir?: string;
      /** Start from a copy of another PGlite database (`dumpPglite`) instead of an empty one. */
      loadDataDir?: Blob;
    }
  | {
      kind: 'postgres';
      url: string;
      poolSize?: number;
      /** How the listening connections check they still hear (postgres-listener.ts). */
      listenerHeartbeat?: ListenerHeartbeat;
    };

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  return target.kind === 'postgres'
    ? openPostgres(
        target.url,
        target.poolSize ?? 10,
        target.listenerHeartbeat ?? DEFAULT_LISTENER_HEARTBEAT,
      )
    : openPglite(target.dataDir, target.loadDataDir);
}

/** Reads with `read`, then copies the database's files, in one hold of the one session. */
type PgliteDump = <T>(read: (db: Kysely<DB>) => Promise<T>) => Promise<{ dump: Blob; read: T }>;

const dumps = new WeakMap<Database, PgliteDump>();

/** An uncompressed copy of a PGlite database's files, for `openDatabase({ loadDataDir })`. The
 * tests start each file's in-memory database from a migrated copy: loading one takes about a
 * quarter of the time an empty database takes to make (test/helpers/pglite-template.ts). */
export async function dumpPglite(database: Database): Promise<Blob> {
  return (await dumpPgliteWith(database, async () => undefined)).dump;
}

/** A copy as `dumpPglite` makes, and what `read` found in that very state: the reads and the copy
 * take turns with nothing else on the one session, so no transaction commits between them (the
 * backup's facts). `read`'s handle is good only while it runs. */
export async function dumpPgliteWith<T>(
  database: Database,
  read: (db: Kysely<DB>) => Promise<T>,
): Promise<{ dump: Blob; read: T }> {
  const dump = dumps.get(database);
  if (!dump) throw new Error('dumpPglite: not a PGlite database');
  return dump(read);
}

async function openPglite(dataDir?: string, loadDataDir?: Blob): Promise<Database> {
  if (dataDir) await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const pglite = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(loadDataDir ? { loadDataDir } : {}),
    parsers: {
      [INT8_OID]: (value: string) => Number(value),
      [NUMERIC_OID]: (value: string) => value,
    },
  });
  const lock = new SessionLock();
  const dialect = pgliteDialect(pglite, lock);
  const db = new Kysely<DB>({ dialect });
  const session: RawSession = {
    exec: async (sql) => void (await pglite.exec(sql)),
    query: async <R>(sql: string, params?: unknown[]) => (await pglite.query<R>(sql, params)).rows,
  };
  const database: Database = {
    kind: 'pglite',
    db,
    dialect,
    withSession: (fn) => lock.run(() => fn(session)),
    // LISTEN runs on the one session too, so it waits for any transaction in progress.
    listen: async (channel, handler) => {
      const unlisten = await lock.run(() => pglite.listen(channel, handler));
      return () => lock.run(() => unlisten());
    },
    leaderLock: (key) => processLeaderLock(pglite, key),
    ping: () => ping(db),
    close: () => db.destroy(),
  };
  // Between transactions: the one session is not in the middle of one. `read` queries through a
  // handle of its own, which never waits for the lock held here (and is never destroyed: that
  // would close the database).
  dumps.set(database, (read) =>
    lock.run(async () => {
      const value = await read(
        new Kysely<DB>({ dialect: pgliteDialect(pglite, new SessionLock()) }),
      );
      return { dump: await pglite.dumpDataDir('none'), read: value };
    }),
  );
  return database;
}

async function openPostgres(
  url: string,
  poolSize: number,
  heartbeat: ListenerHeartbeat,
): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 5_000,
    // pg's client, able to run copyRows()'s COPY … FROM STDIN (copy.ts).
    Client: CopyingClient,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
        if (oid === INT8_OID) return (value: string) => Number(value);
        if (oid === NUMERIC_OID) return (value: string) => value;
        return pg.types.getTypeParser(oid, format);
      }) as typeof pg.types.getTypeParser,
    },
  });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it. Queries report their own errors.
  });
  // A client in use also emits 'error' when its connection drops (a database restart), besides
  // failing its query; without a listener that would be an uncaught exception ending the process.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const dialect = new PostgresDialect({ pool });
  const db = new Kysely<DB>({ dialect });
  return {
    kind: 'postgres',
    url,
    db,
    dialect,
    withSession: async (fn) => {
      const client = await pool.connect();
      try {
        return await fn({
          exec: async (sql) => void (await client.query(sql)),
          query: async <R>(sql: string, params?: unknown[]) =>
            (await client.query(sql, params)).rows as R[],
        });
      } finally {
        client.release();
      }
    },
    leaderLock: (key) => postgresLeaderLock(url, key),
    listen: (channel, handler, onGap) =>
      listenPostgres({
        url,
        channel,
        handler,
        onGap,
        heartbeat,
        notify: async (name, payload) =>
          void (await pool.query('SELECT pg_notify($1, $2)', [name, payload])),
      }),
    ping: () => ping(db),
    // Kysely ends the pool only if it ever ran a query itself: a handle used only for sessions
    // (the migrations) would otherwise keep its connection open.
    close: async () => {
      await db.destroy();
      if (!pool.ended) await pool.end();
    },
  };
}

async function ping(db: Kysely<DB>): Promise<boolean> {
  try {
    await db.selectNoFrom((eb) => eb.lit(1).as('one')).execute();
    return true;
  } catch {
    return false;
  }
}
