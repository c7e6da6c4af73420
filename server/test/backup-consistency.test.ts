// The embedded database's backup while members sign up: the manifest's facts (members, block) are
// those of the very copy the archive holds, never read a moment before it. The same race on
// PostgreSQL is backup.test.ts's (sign-ups during `ops backup`), closed by pg_dump's --snapshot.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config';
import { backupPglite, type BackupFacts } from '../src/domain/operators/backup';
import { openArchive } from '../src/infra/backup/archive';
import { openDatabase } from '../src/infra/db/database';
import { openTestDatabase, testDbKind, type TestDatabase } from './helpers/test-database';

const opened: TestDatabase[] = [];
afterAll(async () => {
  for (const t of opened) await t.drop();
});

describe.runIf(testDbKind === 'pglite')('an embedded backup while members sign up', () => {
  it('names the members and the block the archived copy holds', async () => {
    const test = await openTestDatabase();
    opened.push(test);
    const { database } = test;
    const parsed = parseConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'crw-backup-race-')) });
    if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
    await sql`INSERT INTO chain_follower_state (chain_id, token_address, distributor_address, block_number)
              VALUES (31337, '0x0000000000000000000000000000000000000001',
                      '0x0000000000000000000000000000000000000002', 1)`.execute(database.db);

    // Sign-ups (a user and a profile in one transaction) and the follower's blocks, back to back,
    // for as long as the backup takes: each waits its turn on the one session, so one falls
    // between any two steps the backup takes.
    let joined = 0;
    let backingUp = true;
    const signUps = (async () => {
      while (backingUp) {
        const id = `racer-${++joined}`;
        await database.db.transaction().execute(async (trx) => {
          await sql`INSERT INTO "user" (id, name, email, "emailVerified", "createdAt", "updatedAt")
                    VALUES (${id}, 'Racer', ${`${id}@example.com`}, true, now(), now())`.execute(
            trx,
          );
          await sql`INSERT INTO profiles (id, username, email)
                    VALUES (${id}, ${id}, ${`${id}@example.com`})`.execute(trx);
        });
      }
    })();
    const blocks = (async () => {
      while (backingUp)
        await sql`UPDATE chain_follower_state SET block_number = block_number + 1`.execute(
          database.db,
        );
    })();
    let archive: Buffer;
    try {
      archive = await backupPglite(database, parsed.config);
    } finally {
      backingUp = false;
      await Promise.all([signUps, blocks]);
    }
    expect(joined).toBeGreaterThan(1);

    const { manifest, files } = await openArchive<BackupFacts>(archive);
    const copy = await openDatabase({
      kind: 'pglite',
      loadDataDir: new Blob([new Uint8Array(files.get('database/pglite.tar')!)]),
    });
    try {
      const held = await sql<{ members: number; block: number }>`
        SELECT (SELECT count(*)::int FROM profiles) AS members,
               (SELECT block_number FROM chain_follower_state) AS block`.execute(copy.db);
      expect({ members: manifest.facts.members, block: manifest.facts.chain?.block }).toEqual({
        members: held.rows[0]!.members,
        block: Number(held.rows[0]!.block),
      });
    } finally {
      await copy.close();
    }
  }, 60_000);
});
