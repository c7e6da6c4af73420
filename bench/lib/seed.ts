// Members seeded straight into PostgreSQL for the benchmarks that need many (not timed).
import { sql, type Kysely } from 'kysely';
import type { DB } from '@crw/server/infra/db/schema';
import { insertMembers } from '@crw/server/testing/seeded-members';
import { sized, smokeNeedsPostgres } from './harness';

/** The start of a benchmark over many members on PostgreSQL: TEST_DATABASE_URL set (from
 * DATABASE_URL, or the local server), a smoke run without one skipped loudly, and the member counts
 * from the command line, else `full` (1,000 with --smoke). */
export async function memberCounts(full: number[]): Promise<number[]> {
  process.env.TEST_DATABASE_URL ??=
    process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  await smokeNeedsPostgres(process.env.TEST_DATABASE_URL);
  const given = process.argv.slice(2).map(Number).filter(Boolean);
  return sized(given.length ? given : full, [1_000]);
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** `size` confirmed members, each with a wallet and 200–300 REME of entitlement. */
export async function seedMembers(db: Kysely<DB>, size: number): Promise<void> {
  const ids = sql`SELECT i, 'user-' || lpad(i::text, 8, '0') AS id FROM generate_series(1, ${size}) AS i`;
  await insertMembers(
    db,
    sql`SELECT id, 'Member ' || i AS name, id || '@example.com' AS email FROM (${ids}) n`,
  );
  await sql`INSERT INTO user_token_distributions (user_id, signup_tokens)
            SELECT id, (200 + (i % 5) * 25) * 10::numeric ^ 18 FROM (${ids}) s`.execute(db);
}
