// The quick tier (`npm run test:unit`): the pure tests of core, web and server — no database, no
// chain, no server — with the coverage of core and web. The server's other tests (on each database,
// with the server's coverage) and the contracts' are `npm run test:integration`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      'core/vitest.config.ts',
      // The web's files share one happy-dom page per worker instead of one each (half the time):
      // every test renders into a cleaned-up document and serves its own answers (test-setup.ts),
      // and none replaces a module (vi.mock), which would leak into the files after it.
      { extends: './web/vite.config.ts', root: './web', test: { name: 'web', isolate: false } },
      // The server's tests beside its code and in server/test/unit: once, not once per database.
      {
        root: './server',
        test: {
          name: 'server-unit',
          include: ['src/**/*.test.ts', 'test/unit/**/*.test.ts'],
          setupFiles: ['test/helpers/fail-on-console-error.ts'],
        },
      },
    ],
    coverage: {
      provider: 'v8',
      include: ['core/src/**/*.ts', 'web/src/**/*.{ts,tsx}'],
      exclude: [
        '**/*.test.{ts,tsx}',
        'web/src/test-*.{ts,tsx}',
        'web/src/sw.ts',
        'web/src/lib/wallet/wallet.worker.ts',
      ],
      reporter: ['text-summary'],
      // The floor CI holds: a change that drops coverage below it fails `npm test`.
      thresholds: { lines: 70, functions: 68, branches: 63, statements: 68 },
    },
  },
});
