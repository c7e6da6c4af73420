// A backup made by an older version restores, and the next start brings its schema forward
// (docs/operations.md#backups): the restore lists the migrations still to apply, and applying them
// keeps what the backup held.
import { copyFileSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config';
import { backupPglite, restoreBackup } from '../src/domain/operators/backup';
import { openDatabase } from '../src/infra/db/database';
import { migrate, migrationsDir } from '../src/infra/db/migrate';
import { migrateAuthTables } from '../src/infra/identity/auth';
import { testDbKind } from './helpers/test-database';

describe.runIf(testDbKind === 'pglite')('a backup from an older version', () => {
  it('restores, lists the migrations to apply, and migrates forward with its members kept', async () => {
    const all = readdirSync(migrationsDir)
      .filter((f) => f.endsWith('.sql'))
      .sort();
    const [newest, older] = [all.at(-1)!, all.slice(0, -1)];
    const olderDir = mkdtempSync(path.join(tmpdir(), 'crw-older-migrations-'));
    for (const file of older)
      copyFileSync(path.join(migrationsDir, file), path.join(olderDir, file));

    const config = (dataDir: string) => {
      const parsed = parseConfig({ DATA_DIR: dataDir });
      if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
      return parsed.config;
    };
    const before = await openDatabase({ kind: 'pglite' });
    await migrateAuthTables(before);
    await migrate(before, olderDir);
    await sql`INSERT INTO "user" (id, name, email, "emailVerified", "createdAt", "updatedAt")
              VALUES ('old-member', 'Old Member', 'old@example.com', true, now(), now())`.execute(
      before.db,
    );
    await sql`INSERT INTO profiles (id, username, email) VALUES ('old-member', 'old', 'old@example.com')`.execute(
      before.db,
    );
    const archive = await backupPglite(
      before,
      config(mkdtempSync(path.join(tmpdir(), 'crw-older-keys-'))),
    );
    await before.close();

    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'crw-older-restore-')), 'data');
    const report = await restoreBackup(archive, config(dataDir));
    expect(report.facts.migration).toBe(older.at(-1));
    expect(report.migrationsToApply).toEqual([newest]);

    const restored = await openDatabase({ kind: 'pglite', dataDir });
    try {
      expect(await migrate(restored)).toEqual([newest]);
      const members = await sql<{ id: string }>`SELECT id FROM profiles`.execute(restored.db);
      expect(members.rows).toEqual([{ id: 'old-member' }]);
    } finally {
      await restored.close();
    }
  }, 120_000);
});
