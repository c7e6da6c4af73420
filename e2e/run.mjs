// Runs the Playwright journeys. Without Chromium they are skipped loudly, except under CI=true,
// where a missing browser fails the run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  const banner = '!'.repeat(78);
  console.error(`\n${banner}\n!! E2E JOURNEYS NOT RUN: no Chromium at ${chromium}.`);
  console.error('!! Install it with: apt-get update && apt-get install -y chromium');
  if (process.env.CI === 'true') {
    console.error(`!! CI=true: a missing browser fails the run.\n${banner}\n`);
    process.exit(1);
  }
  console.error(`!! Skipping them (outside CI). Nothing in the browser was checked.\n${banner}\n`);
  process.exit(0);
}

const result = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], {
  stdio: 'inherit',
  cwd: import.meta.dirname,
});
process.exit(result.status ?? 1);
