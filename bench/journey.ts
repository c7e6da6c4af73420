// How long a member waits, in Chromium against a real server process (embedded database and
// chain, no e-mail confirmation): from pressing the button to the first frame where the next
// screen is usable, for sign-up (CREATE ACCOUNT → the 12 words shown), sign-in (LOGIN → the
// dashboard's greeting and its main action), claim (Complete → the Processing card) and recovery
// (Recover → the dashboard), sign-in with a passkey (the button → the dashboard) and claim with a
// passkey (Complete with passkey → the Processing card; Chromium's virtual authenticator with PRF,
// pages at localhost as WebAuthn needs a host name), and the longest main-thread task in that time
// (PerformanceObserver "longtask"). Medians of RUNS members (default 5; --smoke: 1). Needs
// `npm run build -w web` (and contracts).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { BrowserContext, BrowserContextOptions, Page } from '@playwright/test';
import { passGate } from '@crw/server/testing/signup-gate';
import { makeMemberKeys, registerBody } from '@crw/server/testing/members';
import { virtualAuthenticatorOptions } from '@crw/server/testing/virtual-authenticator';
import {
  launchChromium,
  median,
  repoRoot,
  sized,
  smokeNeedsChromium,
  startServer,
} from './lib/harness';

smokeNeedsChromium();
const runs = sized(Number(process.env.RUNS ?? 5), 1);
const PASSWORD = 'Journey-Bench-1';
const NEW_PASSWORD = 'Journey-Bench-2';

type Timing = { ms: number; longestTaskMs: number };

/** Marks the press of the button, then waits for `usable` on every animation frame. */
async function timed(
  page: Page,
  press: () => Promise<void>,
  usable: () => boolean,
  timeoutMs = 60_000,
): Promise<Timing> {
  await page.evaluate(() => {
    const w = window as unknown as { __pressedAt: number };
    w.__pressedAt = Number.POSITIVE_INFINITY;
    document.addEventListener(
      'click',
      () => (w.__pressedAt = Math.min(w.__pressedAt, performance.now())),
      { capture: true, once: true },
    );
  });
  await press();
  await page.waitForFunction(usable, undefined, { polling: 'raf', timeout: timeoutMs });
  return page.evaluate(() => {
    const w = window as unknown as { __pressedAt: number; __longTasks: PerformanceEntry[] };
    const now = performance.now();
    const tasks = w.__longTasks.filter((t) => t.startTime + t.duration >= w.__pressedAt);
    return { ms: now - w.__pressedAt, longestTaskMs: Math.max(0, ...tasks.map((t) => t.duration)) };
  });
}

async function devMailLink(
  url: string,
  to: string,
  subject: string,
  contains: string,
): Promise<string> {
  for (let i = 0; i < 150; i++) {
    const { messages } = (await (
      await fetch(`${url}/dev/mail.json?to=${encodeURIComponent(to)}`)
    ).json()) as { messages: Array<{ subject: string; links: string[] }> };
    const link = messages
      .find((m) => m.subject.includes(subject))
      ?.links.find((l) => l.includes(contains));
    if (link) return link;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no "${subject}" mail for ${to}`);
}

/** A browser context whose pages record their long tasks from their first script on. */
async function watchedContext(options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  await context.addInitScript(() => {
    const w = window as unknown as { __name: unknown; __longTasks: PerformanceEntry[] };
    w.__name = (fn: unknown) => fn; // tsx names functions with a helper the page lacks
    w.__longTasks = [];
    new PerformanceObserver((list) => w.__longTasks.push(...list.getEntries())).observe({
      type: 'longtask',
      buffered: true,
    });
  });
  return context;
}

const server = await startServer({ REQUIRE_EMAIL_CONFIRMATION: 'false', SPONSOR_CLAIMS: 'true' });
const browser = await launchChromium();
const results: Record<
  'signUp' | 'signIn' | 'claim' | 'recovery' | 'passkeySignIn' | 'passkeyClaim',
  Timing[]
> = {
  signUp: [],
  signIn: [],
  claim: [],
  recovery: [],
  passkeySignIn: [],
  passkeyClaim: [],
};

/** The dashboard with its greeting and its main action (Claim, or what comes next). */
const dashboardUsable = () =>
  location.pathname === '/dashboard' &&
  Array.from(document.querySelectorAll('h1')).some((h) => h.textContent?.startsWith('Hello')) &&
  (Array.from(document.querySelectorAll('button')).some((b) => /Claim/.test(b.textContent ?? '')) ||
    document.querySelector('[data-testid="next-step"]') !== null);
/** Back on the dashboard with the claim under way. */
const claimUnderWay = () =>
  location.pathname === '/dashboard' &&
  Array.from(document.querySelectorAll('[role="status"], section, div')).some((e) =>
    /Processing|Queued|Sent to the network|In your wallet|Claim confirmed/.test(
      e.textContent ?? '',
    ),
  );

/** WebAuthn needs a host name: the passkey members use the server at localhost. */
const localUrl = server.url.replace('127.0.0.1', 'localhost');

/** A member made through the API, signed in at localhost in a page with a virtual authenticator
 * (PRF on) where they added a passkey that unlocks their wallet; signed out again. The page (and
 * the authenticator that holds the passkey) stays open for the timings. */
async function passkeyMember(run: number): Promise<Page> {
  const keys = await makeMemberKeys({
    email: `passkey.${Date.now().toString(36)}${run}@example.test`,
    password: PASSWORD,
  });
  const registered = await fetch(`${localUrl}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: localUrl },
    body: JSON.stringify(await registerBody(localUrl, keys)),
  });
  if (registered.status !== 201) throw new Error(`register: ${registered.status}`);
  const context = await watchedContext();
  // The button is timed, not the e-mail field's suggestions (which the virtual authenticator
  // would answer at once).
  await context.addInitScript(() => {
    PublicKeyCredential.isConditionalMediationAvailable = async () => false;
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: virtualAuthenticatorOptions(true),
  });
  await page.goto(`${localUrl}/`);
  await page.getByLabel('Email').fill(keys.email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/dashboard$/, { timeout: 60_000 });
  await page.goto(`${localUrl}/account`);
  const section = page.getByRole('region', { name: /Passkeys/ });
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  await section.getByLabel('Your password', { exact: true }).fill(PASSWORD);
  await section.getByRole('button', { name: 'Continue' }).click();
  await section
    .getByText('Passkey added: it signs you in and unlocks your wallet')
    .waitFor({ timeout: 60_000 });
  await page.goto(`${localUrl}/dashboard`);
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL((u) => u.pathname === '/');
  return page;
}

try {
  const passkeyPages: Page[] = [];
  for (let run = 0; run < runs; run++) passkeyPages.push(await passkeyMember(run));
  const emails: string[] = [];
  for (let run = 0; run < runs; run++) {
    const email = `journey.${Date.now().toString(36)}${run}@example.test`;
    emails.push(email);
    const context = await watchedContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();

    // Sign-up on the start page's card: to the 12 words.
    await page.goto(`${server.url}/signup`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    results.signUp.push(
      await timed(
        page,
        () => page.getByRole('button', { name: 'Create account' }).click(),
        () => document.querySelectorAll('[aria-label="Recovery phrase"] li').length === 12,
      ),
    );
    const phrase = (
      await page
        .getByRole('list', { name: 'Recovery phrase' })
        .getByRole('listitem')
        .allTextContents()
    )
      .map((t) => t.replace(/^\d+\.\s*/, '').trim())
      .join(' ');
    await page.getByRole('button', { name: 'Copy all words' }).click();
    await page.getByRole('button', { name: 'I have saved my code' }).click();
    await page.getByLabel('Your 12-word code').fill(phrase);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/dashboard$/, { timeout: 60_000 });
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((u) => u.pathname === '/');

    // Sign-in: to the dashboard's greeting and its main action (Claim, or what comes next when
    // there is nothing to claim yet).
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    results.signIn.push(
      await timed(
        page,
        () => page.getByRole('button', { name: 'Sign in', exact: true }).click(),
        dashboardUsable,
      ),
    );
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await context.close();
  }

  // One round for every member, then each claims (sponsored: no ETH needed).
  await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'server/src/cli/ops.ts', 'distribute', '--publish'],
    {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', SERVER_URL: server.url, DATA_DIR: server.dataDir },
    },
  );

  for (const email of emails) {
    const context = await watchedContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('button', { name: /^Claim .* REME$/ }).click({ timeout: 60_000 });
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    results.claim.push(
      await timed(
        page,
        () => page.getByRole('button', { name: 'Complete' }).click(),
        claimUnderWay,
      ),
    );
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((u) => u.pathname === '/');

    // Recovery: a password reset by mail, then sign-in opens the recovery screen; Recover with the
    // old password.
    await fetch(`${server.url}/auth/request-password-reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({
        email,
        redirectTo: `/reset-password?email=${encodeURIComponent(email)}`,
        gate: await passGate(server.url, 'reset'),
      }),
    });
    await page.goto(
      await devMailLink(server.url, email, 'Reset your password', '/auth/reset-password/'),
    );
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm new password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Save new password' }).click();
    await page.getByText('Your password has been changed').waitFor();
    await page.goto(`${server.url}/`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/recover-wallet$/, { timeout: 60_000 });
    await page.getByLabel('Old password').check();
    await page.getByLabel('Your old password', { exact: true }).fill(PASSWORD);
    results.recovery.push(
      await timed(
        page,
        () => page.getByRole('button', { name: 'Recover' }).click(),
        () =>
          location.pathname === '/dashboard' &&
          Array.from(document.querySelectorAll('h1')).some((h) =>
            h.textContent?.startsWith('Hello'),
          ),
      ),
    );
    await context.close();
  }

  // The passkey members: the button to the dashboard, then Complete with passkey to the claim.
  for (const page of passkeyPages) {
    await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
    results.passkeySignIn.push(
      await timed(
        page,
        () => page.getByRole('button', { name: 'Sign in with a passkey' }).click(),
        dashboardUsable,
      ),
    );
    await page.getByRole('button', { name: /^Claim .* REME$/ }).click({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Complete with passkey' }).waitFor();
    results.passkeyClaim.push(
      await timed(
        page,
        () => page.getByRole('button', { name: 'Complete with passkey' }).click(),
        claimUnderWay,
      ),
    );
    await page.context().close();
  }

  const goals: Record<keyof typeof results, string> = {
    signUp: 'goal ≤ 3000 ms',
    signIn: 'goal ≤ 1500 ms',
    claim: '',
    recovery: '',
    passkeySignIn: 'goal ≤ 1000 ms',
    passkeyClaim: 'goal ≤ 1000 ms',
  };
  for (const [name, rows] of Object.entries(results) as Array<[keyof typeof results, Timing[]]>) {
    const ms = rows.map((r) => r.ms);
    const tasks = rows.map((r) => r.longestTaskMs);
    console.log(
      `${name.padEnd(13)} ${median(ms).toFixed(0).padStart(5)} ms median of ${rows.length} (min ${Math.min(...ms).toFixed(0)}, max ${Math.max(...ms).toFixed(0)}${goals[name] ? `; ${goals[name]}` : ''}); longest main-thread task ${median(tasks).toFixed(0)} ms median, ${Math.max(...tasks).toFixed(0)} ms max (goal ≤ 100 ms)`,
    );
  }
} finally {
  await browser.close();
  server.stop();
}
