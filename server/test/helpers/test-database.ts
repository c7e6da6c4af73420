// The test database of src/testing/database.ts; each file's starts from the run's migrated copy
// (pglite-template.ts, postgres-template.ts), read only inside vitest.
import { openTestDatabase as open, type OpenTestDatabaseOptions } from '../../src/testing/database';

export {
  createPostgresDatabase,
  sameTestDatabase,
  testDbKind,
  type TestDatabase,
} from '../../src/testing/database';

export function openTestDatabase(opts: Pick<OpenTestDatabaseOptions, 'migrated'> = {}) {
  return open({
    ...opts,
    migratedPglite: async () => (await import('./pglite-copy')).migratedPglite(),
    postgresTemplate: async () => (await import('./postgres-clone')).migratedPostgresTemplate(),
  });
}
