import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, migrationsDir } from '../src/infra/db/migrate';
import { openTestDatabase, testDbKind, type TestDatabase } from './helpers/test-database';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t.drop());

describe(`the database (${testDbKind})`, () => {
  it('holds the product tables and the outbox after migrating', async () => {
    const tables = await sql<{ table_name: string }>`
      SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name`.execute(
      t.database.db,
    );
    expect(tables.rows.map((r) => r.table_name)).toEqual(
      expect.arrayContaining([
        'profiles',
        'user_wallets',
        'user_token_distributions',
        'referrals',
        'mail_outbox',
        'schema_migrations',
      ]),
    );
  });

  it('applies each migration once: a second run applies nothing', async () => {
    expect(await migrate(t.database)).toEqual([]);
  });

  it('rolls back a failing migration whole and reports which file failed', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'crw-mig-'));
    writeFileSync(path.join(dir, '0001_initial.sql'), 'SELECT 1;'); // already applied by name
    writeFileSync(
      path.join(dir, '0002_broken.sql'),
      'CREATE TABLE half_done (id int);\nSELECT no_such_function();',
    );
    await expect(migrate(t.database, dir)).rejects.toThrow(/0002_broken\.sql/);
    const left = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'half_done'`.execute(
      t.database.db,
    );
    expect(left.rows[0]?.n).toBe(0);
    // The session is usable afterwards, and the real migrations are still all applied.
    expect(await migrate(t.database, migrationsDir)).toEqual([]);
  });

  it('keeps amounts exact: numeric(78,0) round-trips as a decimal string', async () => {
    const huge = (2n ** 255n).toString();
    const row = await sql<{ v: string }>`SELECT ${huge}::numeric(78,0) AS v`.execute(t.database.db);
    expect(row.rows[0]?.v).toBe(huge);
  });

  it('never lets concurrent transactions interleave: 20 at once, half failing, leave exactly the committed rows', async () => {
    await sql`CREATE TABLE concurrency_probe (tx int NOT NULL, seq int NOT NULL)`.execute(
      t.database.db,
    );
    const runs = Array.from({ length: 20 }, (_, tx) =>
      t.database.db.transaction().execute(async (trx) => {
        for (let seq = 0; seq < 3; seq++) {
          await trx
            .insertInto('concurrency_probe' as never)
            .values({ tx, seq } as never)
            .execute();
          await new Promise(setImmediate); // yield: give other transactions every chance to cut in
        }
        // Inside the transaction, only this transaction's uncommitted rows and committed ones are visible.
        const mine = await sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM concurrency_probe WHERE tx = ${tx}`.execute(trx);
        if (mine.rows[0]?.n !== 3)
          throw new Error(`transaction ${tx} saw ${mine.rows[0]?.n} of its rows`);
        if (tx % 2 === 1) throw new Error('deliberate rollback');
      }),
    );
    const results = await Promise.allSettled(runs);
    const failures = results.flatMap((r, tx) =>
      r.status === 'rejected' ? [[tx, (r.reason as Error).message] as const] : [],
    );
    expect(
      failures.every(([tx, message]) => tx % 2 === 1 && message === 'deliberate rollback'),
    ).toBe(true);
    expect(failures).toHaveLength(10);
    const rows = await sql<{
      tx: number;
      n: number;
    }>`SELECT tx, count(*)::int AS n FROM concurrency_probe GROUP BY tx ORDER BY tx`.execute(
      t.database.db,
    );
    expect(rows.rows).toEqual(Array.from({ length: 10 }, (_, i) => ({ tx: i * 2, n: 3 })));
  });
});
