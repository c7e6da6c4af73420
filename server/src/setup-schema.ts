import { migrateAuthTables } from './infra/identity/auth';
import type { Database } from './infra/db/database';
import { migrate } from './infra/db/migrate';

/** The whole schema: better-auth's tables first (our SQL references "user"), then our migrations. */
export async function setUpSchema(database: Database): Promise<string[]> {
  return [...(await migrateAuthTables(database)), ...(await migrate(database))];
}
