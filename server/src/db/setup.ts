import { migrateAuthTables } from '../auth/auth';
import type { Database } from './database';
import { migrate } from './migrate';

/** The whole schema: better-auth's tables first (our SQL references "user"), then our migrations. */
export async function setUpSchema(database: Database): Promise<string[]> {
  return [...(await migrateAuthTables(database)), ...(await migrate(database))];
}
