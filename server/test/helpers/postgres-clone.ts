// The migrated PostgreSQL database the run's global setup made (postgres-template.ts): the name
// test-database.ts clones each file's database from. Only loaded inside vitest.
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresTemplate: string;
  }
}

export function migratedPostgresTemplate(): string {
  return inject('postgresTemplate');
}
