// Small pieces every benchmark uses.
import { chromium } from '@playwright/test';
import { freePort } from '@crw/server/testing/ports';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export { freePort };

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** `--smoke`: the benchmark at a tiny size, the same code path in seconds; `npm test` runs every
 * benchmark so (smoke.sh), so none can break unseen. Its figures mean nothing. */
export const smoke = process.argv.includes('--smoke');

/** The full run's size, or the smoke size with --smoke (environment overrides apply to full runs). */
export function sized<T>(full: T, smokeSize: T): T {
  return smoke ? smokeSize : full;
}

/** Says loudly that a smoke run lacks `what` (`hint`: how to get it) and what is `skipped`;
 * under CI=true that fails the run instead (as the e2e journeys do for a missing Chromium). */
function smokeLacks(what: string, hint: string, skipped: string): void {
  const banner = '!'.repeat(78);
  const name = path.basename(process.argv[1] ?? 'bench');
  console.error(`\n${banner}\n!! ${name} --smoke: ${what}.\n!! ${hint}`);
  if (process.env.CI === 'true') {
    console.error(`!! CI=true: a missing dependency fails the run.\n${banner}\n`);
    process.exit(1);
  }
  console.error(`!! ${skipped} (outside CI).\n${banner}\n`);
}

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const hasChromium = () => existsSync(chromiumPath);

/** In a smoke run without Chromium: says so loudly; `skipped` says what is not measured. */
export function smokeLacksChromium(skipped: string): void {
  smokeLacks(
    `no Chromium at ${chromiumPath}`,
    'Install it with: apt-get update && apt-get install -y chromium',
    skipped,
  );
}

/** A smoke run of a benchmark that needs Chromium ends here (skipped, loudly) without one. */
export function smokeNeedsChromium(): void {
  if (!smoke || hasChromium()) return;
  smokeLacksChromium('SKIPPED: nothing in the browser was measured');
  process.exit(0);
}

/** A smoke run of a benchmark that needs PostgreSQL at `url` ends here (skipped, loudly) when
 * nothing answers there. */
export async function smokeNeedsPostgres(url: string): Promise<void> {
  if (!smoke) return;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (error) {
    smokeLacks(
      `no PostgreSQL at ${new URL(url).host} (${(error as Error).message})`,
      'Start PostgreSQL there, or name another server as the benchmark reads it (its header).',
      'SKIPPED: this benchmark did not run',
    );
    process.exit(0);
  } finally {
    await client.end().catch(() => undefined);
  }
}

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
      // Every client here is 127.0.0.1, one network: it must not earn the raised sign-up gate.
      SIGNUP_GATE_NETWORK_HOURLY_SIGNUPS: '100000',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      // Credits count at once, and new accounts' claims are sponsored, unless a benchmark is about that.
      REWARD_HOLD_HOURS: '0',
      SPONSOR_MIN_ACCOUNT_AGE_HOURS: '0',
      SPONSOR_NETWORK_SHARE_PERCENT: '100',
      // Members claim themselves: the relayer claiming for them would take the claim a benchmark times.
      CLAIM_FOR_ME_DEFAULT: 'false',
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
    executablePath: chromiumPath,
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
