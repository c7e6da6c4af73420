// Vitest global setup of the PGlite project: one migrated in-memory database made once per run
// and written to a file, that every test file's database starts from (test-database.ts). Making
// an empty PGlite database and migrating it costs about 1.6 s of CPU; loading the copy about 0.4 s.
// Migrations themselves stay tested: setUpSchema runs again on each copy at every app start (and
// finds nothing to apply), and tests asking for an unmigrated database get an empty one.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { dumpPglite, openDatabase } from '../../src/infra/db/database';
import { setUpSchema } from '../../src/setup-schema';
import './pglite-copy'; // the provided value's type

export default async function setup(project: TestProject) {
  const database = await openDatabase({ kind: 'pglite' });
  await setUpSchema(database);
  const dump = await dumpPglite(database);
  await database.close();
  const dir = mkdtempSync(path.join(tmpdir(), 'crw-pglite-template-'));
  const file = path.join(dir, 'migrated.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
