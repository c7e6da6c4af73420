import { Wallet } from 'ethers';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import {
  confirmByMail,
  fillRegisterForm,
  newEmail,
  readPhrase,
  registerOnRegisterScreen,
  saveAndConfirmPhrase,
  signInOnAuthScreen,
  waitForMail,
} from '../fixtures/member';
import { capture } from '../fixtures/screens';
import { noConfirmURL } from '../fixtures/servers';
import { expectNoSecrets, recordRequests } from '../fixtures/secrets';

const PASSWORD = 'Sunny-Meadow-42';

// Traces off here: a trace's DOM snapshots run on the page's thread, and the sign-up journey below
// measures that thread's longest task.
test.use({ trace: 'off' });

test.describe('join: sign up, keep the phrase, confirm, sign in', () => {
  test('from /register: wallet made in the browser, phrase confirmed, mail link signs in to the dashboard', async ({
    page,
    request,
  }) => {
    const email = newEmail('register');
    const sent = recordRequests(page);
    const longTasks = await watchLongTasks(page);
    await fillRegisterForm(page, email, PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).press('Enter');
    await page.waitForURL(/\/mnemonic$/, { timeout: 120_000 });
    expect(await longTasks(), 'longest main-thread task from send to phrase (ms)').toBeLessThan(
      100,
    );
    const phrase = await saveAndConfirmPhrase(page);

    await expect(page.getByRole('heading', { name: 'Welcome', exact: true })).toBeVisible();
    await expect(
      page.getByRole('status').filter({ hasText: `We sent a confirmation link to ${email}` }),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Resend confirmation e-mail' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('allowed'))).toBe('true');

    await confirmByMail(page, request, email);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText('Hello, Ada Lovelace')).toBeVisible();

    // The keystore on the server: scrypt n=131072, r=8, p=1, opens with the password to the stored address.
    const me = await page.evaluate(async () => (await fetch('/api/me')).json());
    const keystore = JSON.parse(me.wallet.keystore);
    expect(keystore.Crypto.kdfparams).toMatchObject({ n: 131072, r: 8, p: 1 });
    expect(keystore.Crypto.kdf).toBe('scrypt');
    const opened = await Wallet.fromEncryptedJson(me.wallet.keystore, PASSWORD);
    expect(opened.address).toBe(me.wallet.address);
    expect(Wallet.fromPhrase(phrase).address).toBe(me.wallet.address);
    expect(me.wallet.keystore).not.toContain(phrase.split(' ')[0] + ' ' + phrase.split(' ')[1]);
    expect(
      await page.evaluate(
        () =>
          JSON.stringify(localStorage) +
          JSON.stringify(sessionStorage) +
          JSON.stringify(history.state),
      ),
    ).not.toContain(phrase.split(' ').slice(0, 3).join(' '));

    // Logout clears the keys and ends the session.
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('allowed'))).toBeNull();
    expect(await page.evaluate(async () => (await fetch('/api/me')).status)).toBe(401);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);

    // Sign in again: the dashboard at once (the keystore is checked in the worker meanwhile).
    await signInOnAuthScreen(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: /^Hello/ })).toBeVisible();
    expectNoSecrets(sent, PASSWORD, phrase);
  });

  test("from the auth screen's CREATE ACCOUNT, with the phrase downloaded as a file that says what it is", async ({
    page,
    request,
  }) => {
    const email = newEmail('auth');
    const sent = recordRequests(page);
    await page.goto('/');
    await page.getByRole('button', { name: 'Create an account' }).click();
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('progressbar', { name: 'Creating your wallet…' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Your recovery code' })).toBeVisible({
      timeout: 30_000,
    });
    const phrase = await readPhrase(page);
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download text doc' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('reme-wallet-recovery-phrase.txt');
    const { readFile } = await import('node:fs/promises');
    const file = await readFile(await download.path(), 'utf8');
    const [title, , says] = file.split('\n');
    expect(title).toBe('REME Wallet — recovery phrase');
    expect(says).toMatch(
      new RegExp(
        `^These 12 words open the account ${email.replace(/[.+]/g, '\\$&')} and the wallet 0x[0-9a-fA-F]{40} at http`,
      ),
    );
    expect(file).toContain(`All 12 in order: ${phrase}`);
    await page.getByRole('button', { name: 'I have saved my code' }).click();

    await page.getByLabel('Your 12-word code').fill(phrase.split(' ').reverse().join(' '));
    await page.getByRole('button', { name: 'Continue' }).click();
    // The first wrong word is named (the original said only "Entered mnemonic mismatch the original one").
    await expect(page.getByRole('alert')).toHaveText('Word 1 does not match your recovery code.');
    await page.getByRole('button', { name: 'Go back to copy again' }).click();
    await expect(page.getByRole('button', { name: 'Copy all words' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'I have saved my code' })).toBeEnabled();
    await saveAndConfirmPhrase(page);

    // Resend confirmation e-mail sends a second confirmation mail.
    const first = await waitForMail(request, email, 'Confirm your e-mail address');
    await page.getByRole('button', { name: 'Resend confirmation e-mail' }).click();
    await expect(
      page.getByText('Confirmation email resent. Please check your inbox and spam folder.'),
    ).toBeVisible();
    const second = await waitForMail(request, email, 'Confirm your e-mail address', first.id);
    await page.goto(second.links.find((l) => l.includes('/auth/verify-email'))!);
    await expect(page).toHaveURL(/\/dashboard$/);
    // No name or username given: greeted by the e-mail's local part (not "User").
    await expect(
      page.getByRole('heading', { name: `Hello, ${email.split('@')[0]}` }),
    ).toBeVisible();
    // The phrase was typed back, so the dashboard asks for no backup.
    await expect(page.getByRole('heading', { name: 'Back up your wallet' })).toHaveCount(0);
    expectNoSecrets(sent, PASSWORD, phrase);
  });

  test('confirming the phrase: the box shows every word at 375 px, capitals and spaces do not count, a wrong word is named', async ({
    page,
  }) => {
    const email = newEmail('phrase');
    await page.goto('/signup');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('heading', { name: 'Your recovery code' })).toBeVisible({
      timeout: 30_000,
    });
    const words = (await readPhrase(page)).split(' ');
    await page.getByRole('button', { name: 'Download text doc' }).click();
    await page.getByRole('button', { name: 'I have saved my code' }).click();

    await page.setViewportSize({ width: 375, height: 812 });
    const box = page.getByLabel('Your 12-word code');
    // Twelve words of 8 letters, the longest a code can have (the one shown is random).
    await box.fill(
      'abstract absolute accident acoustic activity actually addition ordinary universe mushroom elephant umbrella',
    );
    const clipped = await box.evaluate((el) => el.scrollHeight - el.clientHeight);
    expect
      .soft(clipped, 'lines of the typed code hidden in the box at 375 px (px)')
      .toBeLessThanOrEqual(0);

    await box.fill(words.map((w, i) => (i === 6 ? `${w}x` : w)).join(' '));
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect
      .soft(page.getByRole('alert'))
      .toHaveText('Word 7 does not match your recovery code.');
    await expect.soft(box).toHaveAttribute('aria-invalid', 'true');
    await expect.soft(box).toHaveAccessibleDescription('Word 7 does not match your recovery code.');
    await capture(page, 'mnemonic-confirm-error');

    // As a member may type it: a capital at the start, a line break, a trailing space.
    await box.fill(
      `${words[0]!.charAt(0).toUpperCase()}${words[0]!.slice(1)} ${words.slice(1, 6).join(' ')}\n${words.slice(6).join(' ')} `,
    );
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'Welcome', exact: true })).toBeVisible();
    await expect(
      page.getByRole('status').filter({ hasText: `We sent a confirmation link to ${email}` }),
    ).toBeVisible();
  });

  test('the mnemonic screen without a phrase returns to /', async ({ page }) => {
    await page.goto('/mnemonic');
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
  });
});

/**
 * Records the page's long tasks from the form's submission on; the returned function gives the
 * longest, in ms. Playwright's own work in the page is kept out of the window: finding the button
 * (accessible names of the whole page) happens before the submit event, the window ends by
 * waiting for the URL (no polling in the page), and this file records no trace (its DOM snapshots
 * run on the page's thread).
 */
async function watchLongTasks(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __tasks: Array<[number, number]>; __since: number };
    w.__tasks = [];
    w.__since = Infinity;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__tasks.push([entry.startTime, entry.duration]);
    }).observe({ type: 'longtask', buffered: true });
    const sent = () => (w.__since = Math.min(w.__since, performance.now()));
    document.addEventListener('submit', sent, { capture: true });
  });
  // A task counts if it ends after the submission began (the one that handles it included).
  return () =>
    page.evaluate(() => {
      const w = window as unknown as { __tasks: Array<[number, number]>; __since: number };
      return Math.max(
        0,
        ...w.__tasks
          .filter(([start, duration]) => start + duration >= w.__since)
          .map(([, duration]) => duration),
      );
    });
}

test.describe('join without e-mail confirmation (REQUIRE_EMAIL_CONFIRMATION=false)', () => {
  test.use({ baseURL: noConfirmURL });

  test('sign-up signs the member in; after the phrase the dashboard follows 1.5 s later', async ({
    page,
  }) => {
    const email = newEmail('instant');
    await registerOnRegisterScreen(page, email, PASSWORD);
    await expect(
      page.getByText('Your wallet is ready! Taking you to your dashboard…'),
    ).toBeVisible();
    const shownAt = Date.now();
    await expect(page).toHaveURL(/\/dashboard$/);
    expect(Date.now() - shownAt).toBeGreaterThan(1000);
    await expect(page.getByText('Hello, Ada Lovelace')).toBeVisible();
  });

  test('no dead ends for a signed-in member: / opens the dashboard, and Back to /mnemonic signs nobody out', async ({
    page,
  }) => {
    await registerOnRegisterScreen(page, newEmail('no-dead-end'), PASSWORD);
    await expect(page).toHaveURL(/\/dashboard$/);

    await page.goto('/');
    await expect
      .soft(page, 'a signed-in member opening / is sent to the dashboard')
      .toHaveURL(/\/dashboard$/);
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { name: 'Hello, Ada Lovelace' })).toBeVisible();

    // Back to the phrase screen's entry (its phrase long gone): the app moves on, the member stays in.
    await page.evaluate(() => {
      history.pushState(null, '', '/mnemonic');
      history.pushState(null, '', '/dashboard');
    });
    await page.goBack();
    await expect.soft(page).toHaveURL(/\/dashboard$/);
    expect.soft(await page.evaluate(() => localStorage.getItem('allowed'))).toBe('true');
    await page.goto('/rcb');
    await expect(
      page.getByRole('heading', { name: 'Hi Ada Lovelace, grow your community' }),
    ).toBeVisible();
  });
});
