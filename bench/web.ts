// What a member's browser downloads and waits for: the gzipped JavaScript the auth screen and the
// dashboard load on a cold visit (every script the page fetched, sized gzipped), whether ethers is
// among it, and in Chromium the time from navigation to the first frame where the screen is usable
// (the auth form's LOGIN button enabled; the dashboard's greeting and main action — Claim, or what
// comes next when there is nothing to claim — shown), checked
// in the page on every animation frame; each the median of RUNS cold loads (default 7) in fresh
// browser contexts (--smoke: 1). Needs `npm run build -w web`.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BrowserContext, Page } from '@playwright/test';
import { makeMemberKeys, registerBody } from '@crw/server/testing/members';
import {
  launchChromium,
  median,
  repoRoot,
  sized,
  smokeNeedsChromium,
  startServer,
} from './lib/harness';

smokeNeedsChromium();
const runs = sized(Number(process.env.RUNS ?? 7), 1);
const dist = path.join(repoRoot, 'web/dist');
if (!existsSync(path.join(dist, 'index.html')))
  throw new Error('no built web app: run `npm run build -w web` first');

/** Sizes of the scripts a page loaded, from the build's own .gz files, and whether ethers is in them. */
function scriptFigures(urls: string[]) {
  let gz = 0;
  let ethers = false;
  const sizes: string[] = [];
  for (const url of urls) {
    const file = path.join(dist, new URL(url).pathname);
    // The build pre-compresses all but the smallest files; those are gzipped here alike.
    const size = existsSync(`${file}.gz`)
      ? readFileSync(`${file}.gz`).length
      : gzipSync(readFileSync(file), { level: 9 }).length;
    gz += size;
    sizes.push(`${path.basename(file).replace(/-[\w-]{8}\.js$/, '')} ${(size / 1024).toFixed(1)}`);
    const map = `${file}.map`;
    if (
      existsSync(map) &&
      (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources.some((s) =>
        s.includes('node_modules/ethers/'),
      )
    )
      ethers = true;
  }
  return {
    kb: gz / 1024,
    files: urls.length,
    ethers,
    sizes: sizes.sort((a, b) => Number(b.split(' ')[1]) - Number(a.split(' ')[1])),
  };
}

/** The page's clock (ms since navigation) at the first frame where `usable` returns it (not false). */
const usableAt = (page: Page, usable: () => number | false) =>
  page
    .waitForFunction(usable, undefined, { polling: 'raf', timeout: 30_000 })
    .then((h) => h.jsonValue() as Promise<number>);

async function coldLoad(context: BrowserContext, url: string, usable: () => number | false) {
  const page = await context.newPage();
  const scripts = new Set<string>();
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script' && response.url().endsWith('.js'))
      scripts.add(response.url());
  });
  await page.goto(url, { waitUntil: 'commit' });
  const ms = await usableAt(page, usable);
  await page.waitForLoadState('networkidle');
  await page.close();
  return { ms, scripts: [...scripts] };
}

const server = await startServer({ REQUIRE_EMAIL_CONFIRMATION: 'false' });
const browser = await launchChromium();
try {
  // One member, registered and signed in through the API (the wallet made as the browser makes it).
  const keys = await makeMemberKeys();
  const registered = await fetch(`${server.url}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(await registerBody(server.url, keys)),
  });
  if (!registered.ok) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  const signedIn = await fetch(`${server.url}/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({ email: keys.email, password: keys.authSecret }),
  });
  if (!signedIn.ok) throw new Error(`sign-in: ${signedIn.status} ${await signedIn.text()}`);
  const cookies = signedIn.headers.getSetCookie().map((c) => {
    const [name, ...value] = c.split(';')[0]!.split('=');
    return { name: name!, value: value.join('='), url: server.url };
  });

  type Load = Awaited<ReturnType<typeof coldLoad>>;
  const auth: Load[] = [];
  const dashboard: Load[] = [];
  for (let run = 0; run < runs; run++) {
    const visitor = await browser.newContext();
    await visitor.addInitScript('window.__name = (fn) => fn'); // tsx names functions with a helper the page lacks
    auth.push(
      await coldLoad(
        visitor,
        `${server.url}/`,
        () =>
          Array.from(document.querySelectorAll('button')).some(
            (b) =>
              b.textContent?.trim() === 'Sign in' &&
              !b.disabled &&
              b.getBoundingClientRect().height > 0,
          ) && performance.now(),
      ),
    );
    await visitor.close();

    const member = await browser.newContext();
    await member.addInitScript('window.__name = (fn) => fn');
    await member.addCookies(cookies);
    await member.addInitScript(() => localStorage.setItem('allowed', 'true'));
    dashboard.push(
      await coldLoad(
        member,
        `${server.url}/dashboard`,
        () =>
          Array.from(document.querySelectorAll('h1')).some(
            (h) => h.textContent === 'Hello, Ada Lovelace',
          ) &&
          (Array.from(document.querySelectorAll('button')).some((b) =>
            /^Claim .* REME$/.test(b.textContent?.trim() ?? ''),
          ) ||
            document.querySelector('[data-testid="next-step"]') !== null) &&
          performance.now(),
      ),
    );
    await member.close();
  }
  const line = (name: string, rows: Load[], budgetKb: number) => {
    // Every cold load fetches the same files; they are sized (and their maps read) once.
    const { kb, files, ethers, sizes } = scriptFigures(rows[0]!.scripts);
    const ms = median(rows.map((r) => r.ms));
    return `${name}: ${kb.toFixed(1)} KB gzipped JavaScript in ${files} files (goal ≤ ${budgetKb} KB), ethers ${ethers ? 'LOADED' : 'not loaded'}; usable after ${ms.toFixed(0)} ms median of ${rows.length} cold loads (min ${Math.min(...rows.map((r) => r.ms)).toFixed(0)}, max ${Math.max(...rows.map((r) => r.ms)).toFixed(0)}; goal ≤ 1000 ms)\n  files (KB gzipped): ${sizes.join(', ')}`;
  };
  console.log(line('auth screen', auth, 120));
  console.log(line('dashboard', dashboard, 200));
} finally {
  await browser.close();
  server.stop();
}
