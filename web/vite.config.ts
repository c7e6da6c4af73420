import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { defineConfig } from 'vitest/config';
import { appShell } from './vite-plugin-app-shell';
import { noRuntimeStyles, styleSingletonShim } from './vite-plugin-no-runtime-styles';

const api = 'http://localhost:3000';

export default defineConfig({
  // Pre-compressed .br/.gz copies: the server sends them as they are, spending no CPU per request.
  // sw.js is left uncompressed: the app-shell plugin writes the file list into it last.
  plugins: [
    react(),
    noRuntimeStyles(),
    appShell(),
    compression({ algorithms: ['gzip', 'brotliCompress'], exclude: [/\.map$/, /^sw\.js$/] }),
  ],
  resolve: { alias: [{ find: /^react-style-singleton$/, replacement: styleSingletonShim }] },
  server: {
    port: 5173,
    proxy: { '/api': api, '/auth': api, '/rpc': api, '/dev': api },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
    // A screen is lazily loaded and a test waits for it up to 5 s (test-setup.ts): the test itself
    // gets room for a few such waits on a loaded machine (CI timed out at 5 s while busy).
    testTimeout: 20_000,
  },
});
