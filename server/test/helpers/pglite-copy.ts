// The migrated PGlite database the run's global setup made (pglite-template.ts), read once per
// worker: what test-database.ts starts each file's in-memory database from. Only loaded inside
// vitest (only test-database.ts imports it, and only for PGlite).
import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

let template: Promise<Blob> | undefined;

export function migratedPglite(): Promise<Blob> {
  template ??= readFile(inject('pgliteTemplate')).then((bytes) => new Blob([bytes]));
  return template;
}
