// The whole schema, as the server and the tests set it up: better-auth's tables first (our SQL
// references "user"), then our migrations, then core's reward amounts written where the SQL reads
// them. The root runs it, so that the database layer knows neither identity nor rewards.
import { writeRewardAmountsSql } from './domain/rewards/reward-amounts';
import type { Database } from './infra/db/database';
import { migrate, migrationsDir } from './infra/db/migrate';
import { migrateAuthTables } from './infra/identity/auth';

export async function setUpSchema(database: Database): Promise<string[]> {
  return [
    ...(await migrateAuthTables(database)),
    ...(await migrate(database, migrationsDir, [writeRewardAmountsSql()])),
  ];
}
