// Vitest global setup of the PostgreSQL project: one database migrated once per run, which every
// test file's database is cloned from (`CREATE DATABASE … TEMPLATE`, a file copy on the server)
// instead of being migrated from empty. Migrations stay tested: each app start runs them again on
// the clone (nothing to apply), and `openTestDatabase({ migrated: false })` still starts empty.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/infra/db/database';
import { setUpSchema } from '../../src/setup-schema';
import './postgres-clone'; // the provided value's type

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject) {
  if (!process.env.TEST_DATABASE_URL) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `crw_template_${randomBytes(6).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(process.env.TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 1 });
  try {
    await setUpSchema(database);
  } finally {
    // A template must have no open connection while it is copied.
    await database.close();
  }
  project.provide('postgresTemplate', name);
  return () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
