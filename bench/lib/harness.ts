// Small pieces every benchmark uses.
import { chromium } from '@playwright/test';
import { freePort } from '@crw/server/testing/ports';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export { freePort };

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The value below which p % of `sorted` lie (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  ]!;
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Resolves once the server at `url` answers GET /api/health with 200 (two minutes at most). */
export function waitForHealth(url: string): Promise<void> {
  return waitFor(
    async () => (await fetch(`${url}/api/health`).catch(() => undefined))?.status === 200,
    120_000,
  );
}

/** BENCH_URL when given; otherwise a fresh server process (embedded database, quiet logs). */
export async function startServer(
  env: Record<string, string> = {},
): Promise<{ url: string; dataDir: string; stop: () => void }> {
  if (process.env.BENCH_URL)
    return {
      url: process.env.BENCH_URL,
      dataDir: process.env.DATA_DIR ?? '',
      stop: () => undefined,
    };
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'crw-bench-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: repoRoot,
    // PUBLIC_URL is where this server listens, so the links it mails lead back to it.
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      ...env,
    },
    stdio: 'inherit',
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(url);
  return { url, dataDir, stop: () => child.kill('SIGTERM') };
}

/** Debian's Chromium, headless, with the flags every benchmark runs it with (as the journeys do). */
export function launchChromium() {
  return chromium.launch({
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
  });
}
