// Journeys in Debian's Chromium against the real server (built SPA, database, mail outbox).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import {
  communityAppSecret,
  communityAppURL,
  mainPort,
  mainURL,
  noConfirmPort,
} from './fixtures/servers';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = (process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'crw-e2e-')));

function server(serverPort: number, dataDir: string, extraEnv: Record<string, string>) {
  const url = `http://127.0.0.1:${serverPort}`;
  return {
    command: 'node --import tsx server/src/main.ts',
    cwd: repoRoot,
    url: `${url}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      // Every client here is 127.0.0.1, one network: it must not earn the raised sign-up gate.
      SIGNUP_GATE_NETWORK_HOURLY_SIGNUPS: '100000',
      NODE_ENV: 'test',
      PORT: String(serverPort),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // Journeys share one IP; the per-e-mail limit stays at its default and is tested.
      AUTH_RATE_LIMIT_PER_IP: '500',
      // Credits count at once and new accounts' claims are sponsored; the journey about held rewards
      // starts a server that holds them.
      REWARD_HOLD_HOURS: '0',
      SPONSOR_MIN_ACCOUNT_AGE_HOURS: '0',
      SPONSOR_NETWORK_SHARE_PERCENT: '100',
      // Members press Claim themselves; the notifications journey turns "claim for me" on, as a
      // member does on the account page (production's default is on).
      CLAIM_FOR_ME_DEFAULT: 'false',
      COMMUNITY_APP_URL: communityAppURL,
      COMMUNITY_APP_CLIENT_SECRET: communityAppSecret,
      EXPLORER_URL: 'https://sepolia.etherscan.io',
      ...(process.env.E2E_DATABASE_URL ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {}),
      ...extraEnv,
    },
  };
}

export default defineConfig({
  testDir: './journeys',
  outputDir: './test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['html', { open: 'never', outputFolder: './playwright-report' }]],
  use: {
    baseURL: mainURL,
    trace: 'retain-on-failure',
    permissions: ['clipboard-read', 'clipboard-write'],
    acceptDownloads: true,
    screenshot: 'only-on-failure',
    // The app follows the system's light or dark setting; the journeys run on a dark system (the
    // app's default look), and the screenshot journeys draw every theme, light among them.
    colorScheme: 'dark',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  // The main server's members pay their own claim fee (the original product's flow, docs/product.md
  // deviation 13); the second's community pays it (sponsored claims, on by default with the
  // embedded chain).
  webServer: [
    server(mainPort, dataDir, { SPONSOR_CLAIMS: 'false' }),
    server(noConfirmPort, `${dataDir}-no-confirm`, {
      REQUIRE_EMAIL_CONFIRMATION: 'false',
      RELAYER_BATCH_WAIT_MS: '500',
    }),
  ],
});
