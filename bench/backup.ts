// Backup and restore on PostgreSQL for 100,000 and 1,000,000 members (docs/operations.md#backups):
// members with wallets, keystores' worth of data and entitlements are seeded (not timed), a round
// is recorded, then the server's backup (pg_dump in its custom format, wrapped with the manifest
// and checksums) is made and restored into an empty database with pg_restore, as `ops backup` and
// `ops restore` do. It prints the time of each, the archive's size, and checks the restored
// database has every member. Goal: a restore of 1,000,000 members in ≤ 5 minutes on this machine.
// Usage: DATABASE_URL=postgres://… npm run bench:backup [-- 100000 1000000]; --smoke: 1,000.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { parseConfig } from '@crw/server/config';
import { backupPostgres, restoreBackup } from '@crw/server/domain/operators/backup';
import { openDatabase } from '@crw/server/infra/db/database';
import { setUpSchema } from '@crw/server/setup-schema';
import { createPostgresDatabase } from '@crw/server/testing/database';
import { memberCounts, seconds, seedMembers } from './lib/seed';

const sizes = await memberCounts([100_000, 1_000_000]);

function configFor(url: string) {
  const parsed = parseConfig({
    DATABASE_URL: url,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'crw-bench-backup-')),
  });
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  return parsed.config;
}

for (const size of sizes) {
  const source = await createPostgresDatabase();
  const target = await createPostgresDatabase();
  const database = await openDatabase({ kind: 'postgres', url: source.url, poolSize: 4 });
  const restored = await openDatabase({ kind: 'postgres', url: target.url, poolSize: 1 });
  try {
    await setUpSchema(database);
    let t = performance.now();
    await seedMembers(database.db, size);
    // What a member's row really carries: a scrypt keystore, about 500 bytes of JSON that is
    // mostly random hex (the ciphertext, salt, IV and MAC), which no compression shrinks.
    await sql`UPDATE user_wallets SET encrypted_wallet =
                encode(sha512(convert_to(user_id || 'a', 'UTF8')), 'hex') ||
                encode(sha512(convert_to(user_id || 'b', 'UTF8')), 'hex') ||
                encode(sha512(convert_to(user_id || 'c', 'UTF8')), 'hex') ||
                encode(sha512(convert_to(user_id || 'd', 'UTF8')), 'hex')`.execute(database.db);
    await sql`ANALYZE`.execute(database.db);
    const seedMs = performance.now() - t;

    t = performance.now();
    const archive = await backupPostgres(database, source.url, configFor(source.url));
    const backupMs = performance.now() - t;

    t = performance.now();
    const report = await restoreBackup(archive, configFor(target.url));
    const restoreMs = performance.now() - t;
    const counted = await sql<{ n: number }>`SELECT count(*)::int AS n FROM profiles`.execute(
      restored.db,
    );
    const members = Number(counted.rows[0]!.n);
    if (members !== size || report.facts.members !== size)
      throw new Error(`restored ${members} members of ${size} (manifest: ${report.facts.members})`);
    console.log(
      `${size.toLocaleString('en')} members (seeded in ${seconds(seedMs)}): backup ${seconds(backupMs)}, ` +
        `archive ${(archive.length / 1e6).toFixed(1)} MB; restore into an empty database ${seconds(restoreMs)} ` +
        `(goal at 1,000,000: ≤ 300 s); members after the restore: ${members.toLocaleString('en')}`,
    );
  } finally {
    await restored.close();
    await database.close();
    await source.drop();
    await target.drop();
  }
}
