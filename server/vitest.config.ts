import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    setupFiles: ['test/helpers/fail-on-console-error.ts'],
    // Printed by the PGlite run (scripts/test.sh); the floor CI holds.
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      exclude: ['src/**/*.test.ts'],
      reporter: ['text-summary'],
      thresholds: { lines: 77, functions: 78, branches: 63, statements: 74 },
    },
  },
});
