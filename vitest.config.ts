// The quick tier (`npm run test:unit`): the pure tests of core and web — no database, no chain, no
// server — with their coverage. The server's and the contracts' tests are `npm run test:integration`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      'core/vitest.config.ts',
      // The web's files share one happy-dom page per worker instead of one each (half the time):
      // every test renders into a cleaned-up document and serves its own answers (test-setup.ts),
      // and none replaces a module (vi.mock), which would leak into the files after it.
      { extends: './web/vite.config.ts', root: './web', test: { name: 'web', isolate: false } },
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
