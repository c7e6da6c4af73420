// The server's tests (`npm run test:integration`, after the contracts): every file runs on
// in-memory PGlite, and again on PostgreSQL when TEST_DATABASE_URL is set — two projects of one
// run, so the two databases' files share the workers instead of running one pass after the other.
// TEST_DB=pglite|postgres picks one of them (as `TEST_DB=postgres npx vitest run test/x.test.ts`).
import { configDefaults, defineConfig } from 'vitest/config';

const databases = process.env.TEST_DB
  ? [process.env.TEST_DB]
  : ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];

export default defineConfig({
  test: {
    // The pure tests — beside the code in src, and test/unit — need no database: they run once, in
    // the root's quick tier (the `server-unit` project of ../vitest.config.ts).
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, 'test/unit/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    setupFiles: ['test/helpers/fail-on-console-error.ts'],
    // Two files at once (every file has its own database, data directory and free ports); vitest's
    // default here would be one at a time (cores − 1). Four were faster still, but starved the
    // server processes the tests spawn, whose deadlines (a 9 s shutdown) then failed (decision 0021).
    maxWorkers: Number(process.env.SERVER_TEST_WORKERS ?? 2),
    // Each file in a fresh module graph (vitest's default): keeping modules between files saved
    // about 1.5 of 9 minutes, but a file's vi.mock then reached the files after it in its worker
    // (decision 0021).
    projects: databases.map((db) => ({
      extends: true,
      test: {
        name: db,
        env: { TEST_DB: db },
        // Each file's database starts from one migrated copy made once per run.
        globalSetup: [`test/helpers/${db}-template.ts`],
      },
    })),
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      // src/testing is the tests' and benchmarks' own support, not the product measured.
      exclude: ['src/**/*.test.ts', 'src/testing/**'],
      reporter: ['text-summary'],
      // The floor CI holds (measured over both databases' runs when PostgreSQL is there).
      thresholds: { lines: 77, functions: 78, branches: 63, statements: 74 },
    },
  },
});
