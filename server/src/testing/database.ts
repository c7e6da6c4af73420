// A fresh database for a test file or a benchmark: in-memory PGlite, or (TEST_DB=postgres) a new
// database on the server named by TEST_DATABASE_URL, dropped afterwards. Migrations applied either
// way: from a migrated copy when the caller has one (the server tests' run makes one per database,
// test/helpers/pglite-template.ts and postgres-template.ts), otherwise by running them.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../infra/db/database';
import { setUpSchema } from '../setup-schema';

export const testDbKind: 'pglite' | 'postgres' =
  process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

export interface TestDatabase {
  database: Database;
  /** Set on PostgreSQL: the URL of this test's own database (for spawned servers). */
  url?: string;
  drop(): Promise<void>;
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A new PostgreSQL database, empty or a copy of `template`; returns its URL and a drop function. */
export async function createPostgresDatabase(template?: string): Promise<{
  url: string;
  drop: () => Promise<void>;
}> {
  if (!process.env.TEST_DATABASE_URL) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `crw_test_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`));
  const url = new URL(process.env.TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

export interface OpenTestDatabaseOptions {
  /** Migrated (the default) or empty. */
  migrated?: boolean;
  /** A migrated PGlite database's dump to start from instead of migrating (PGlite only). */
  migratedPglite?: () => Promise<Blob>;
  /** A migrated PostgreSQL database to copy instead of migrating (`CREATE DATABASE … TEMPLATE`). */
  postgresTemplate?: () => Promise<string>;
}

export async function openTestDatabase(opts: OpenTestDatabaseOptions = {}): Promise<TestDatabase> {
  const migrated = opts.migrated ?? true;
  if (testDbKind === 'pglite') {
    const database =
      migrated && opts.migratedPglite
        ? await openDatabase({ kind: 'pglite', loadDataDir: await opts.migratedPglite() })
        : await openDatabase({ kind: 'pglite' });
    if (migrated && !opts.migratedPglite) await setUpSchema(database);
    return { database, drop: () => database.close() };
  }
  const template = migrated && opts.postgresTemplate ? await opts.postgresTemplate() : undefined;
  const created = await createPostgresDatabase(template);
  const database = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 10 });
  if (migrated && !template) await setUpSchema(database);
  return {
    database,
    url: created.url,
    drop: async () => {
      await database.close();
      await created.drop();
    },
  };
}

/** Another handle on the same database, as a second server process would have: its own pool on
 * PostgreSQL; on PGlite (in memory, one session per process) the same handle, left open on drop. */
export async function sameTestDatabase(of: TestDatabase): Promise<TestDatabase> {
  if (!of.url) return { database: of.database, drop: async () => undefined };
  const database = await openDatabase({ kind: 'postgres', url: of.url, poolSize: 10 });
  return { database, url: of.url, drop: () => database.close() };
}
