// Applies server/migrations/*.sql in name order, each file once, each in its own transaction, on
// PGlite and PostgreSQL alike. An advisory lock keeps two starting servers from racing. Then it
// writes core's reward amounts, which the SQL functions read (domain/rewards/reward-amounts.ts).
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './database';
import { LOCK_KEYS } from './lock-keys';

export const migrationsDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../migrations',
);

/** Applies the migrations of `dir` not applied yet, in name order, under the migrations lock; then
 * the statements `afterwards` (such as writing constants the SQL reads), at every run. */
export async function migrate(
  database: Database,
  dir: string = migrationsDir,
  afterwards: readonly string[] = [],
): Promise<string[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  return database.withSession(async (session) => {
    await session.exec(`SELECT pg_advisory_lock(${LOCK_KEYS.migrations});`);
    try {
      await session.exec(
        'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());',
      );
      const applied = new Set(
        (await session.query<{ name: string }>('SELECT name FROM schema_migrations')).map(
          (r) => r.name,
        ),
      );
      const newlyApplied: string[] = [];
      for (const file of files.filter((f) => !applied.has(f))) {
        const sql = await readFile(path.join(dir, file), 'utf8');
        try {
          await session.exec(
            `BEGIN;\n${sql}\n;INSERT INTO schema_migrations (name) VALUES ('${file.replace(/'/g, "''")}');\nCOMMIT;`,
          );
        } catch (error) {
          await session.exec('ROLLBACK;');
          throw new Error(`Migration ${file} failed: ${(error as Error).message}`, {
            cause: error,
          });
        }
        newlyApplied.push(file);
      }
      for (const statement of afterwards) await session.exec(statement);
      return newlyApplied;
    } finally {
      await session.exec(`SELECT pg_advisory_unlock(${LOCK_KEYS.migrations});`);
    }
  });
}
