// The account page's security settings as a member uses them: two-factor sign-in with
// an authenticator app (the test is the app: it computes codes from the key the page shows), the
// places they are signed in, the profile the greeting uses, and signing out reaching every tab
// and every other browser at once.
import type { Browser, Page } from '@playwright/test';
import { TOTP } from 'otpauth';
import { joinThroughApi, newEmail, signInOnAuthScreen } from '../fixtures/member';
import { capture } from '../fixtures/screens';
import { expect, test } from '../fixtures/test';

const PASSWORD = 'Steady-Hands-42';

async function newMember(page: Page): Promise<string> {
  const email = newEmail('security');
  await joinThroughApi(page, { email, password: PASSWORD });
  return email;
}

async function openAccount(page: Page) {
  await page.getByRole('link', { name: 'Account' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { name: 'Account and security' })).toBeVisible();
}

async function signInBrowser(browser: Browser, baseURL: string, email: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signInOnAuthScreen(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 });
  return { context, page };
}

/** A code the app would show that is not the current one. */
const wrongCode = (totp: TOTP) =>
  String((Number(totp.generate()) + 500_000) % 1_000_000).padStart(6, '0');

test('two-factor sign-in: enrol from the key shown (grouped) or the app link, a code at sign-in, a wrong code refused, a backup code once, turned off', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const email = await newMember(page);
  await openAccount(page);
  await capture(page, 'account');

  const section = page.getByRole('region', { name: /Two-factor sign-in/ });
  await section.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  await section.getByLabel('Your password', { exact: true }).fill('not-my-password');
  await section.getByRole('button', { name: 'Continue' }).click();
  await expect(section.getByRole('alert')).toContainText('Invalid email or password');
  await section.getByLabel('Your password', { exact: true }).fill(PASSWORD);
  await section.getByRole('button', { name: 'Continue' }).click();
  await expect(
    section.getByRole('img', { name: 'QR code for your authenticator app' }),
  ).toBeVisible();
  // The key as it is typed by hand: shown in groups of four; the app's link carries the same one.
  const shown = (await section.getByTestId('totp-secret').textContent())!;
  expect(shown).toMatch(/^([A-Z2-7]{4} )+[A-Z2-7]{1,4}$/);
  const secret = shown.replace(/\s+/g, '');
  const href = await section
    .getByRole('link', { name: 'Open in authenticator app' })
    .getAttribute('href');
  expect(href).toMatch(/^otpauth:\/\/totp\//);
  expect(new URL(href!).searchParams.get('secret')).toBe(secret);
  const totp = new TOTP({ secret, digits: 6, period: 30 });
  const backupCodes = await section
    .getByRole('list', { name: 'Backup codes' })
    .getByRole('listitem')
    .allTextContents();
  expect(backupCodes).toHaveLength(10);
  for (const code of backupCodes) expect(code).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
  await capture(page, 'account-two-factor-enrol');
  await section.getByLabel('Code from your app').fill(wrongCode(totp));
  await section.getByRole('button', { name: 'Turn on', exact: true }).click();
  await expect(section.getByRole('alert')).toContainText('That code is not right');
  await section.getByLabel('Code from your app').fill(totp.generate());
  // Turning it on renews the session: this page stays signed in. The old session's event stream
  // says "signed-out", the page asks whether it is still signed in and, as it is, opens the
  // stream again with the new session.
  const reopened = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/events', {
    timeout: 20_000,
  });
  await section.getByRole('button', { name: 'Turn on', exact: true }).click();
  await expect(section.getByText('Two-factor sign-in is on.')).toBeVisible();
  expect((await reopened).status()).toBe(200);
  await expect(page).toHaveURL(/\/account$/);

  // Sign in: password, then a wrong code, then the right one.
  await page.getByRole('link', { name: 'Back to your wallet' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await signInOnAuthScreen(page, email, PASSWORD);
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
  await capture(page, 'auth-two-factor');
  await page.getByLabel('Authentication code').fill(wrongCode(totp));
  await page.getByRole('button', { name: 'VERIFY' }).click();
  await expect(page.getByRole('alert')).toContainText('That code is not right');
  await page.getByLabel('Authentication code').fill(totp.generate());
  await page.getByRole('button', { name: 'VERIFY' }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 });

  // A backup code, once: typed in lower case without the dash, then again as shown.
  for (const expected of ['dashboard', 'refused'] as const) {
    await page.getByRole('button', { name: 'Logout' }).click();
    await signInOnAuthScreen(page, email, PASSWORD);
    await page.getByRole('button', { name: 'Lost your phone? Use a backup code' }).click();
    await page
      .getByLabel('Backup code')
      .fill(
        expected === 'dashboard' ? backupCodes[0]!.replace('-', '').toLowerCase() : backupCodes[0]!,
      );
    await page.getByRole('button', { name: 'VERIFY' }).click();
    if (expected === 'dashboard') await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 });
    else await expect(page.getByRole('alert')).toContainText('That code is not right');
  }
  await page.getByRole('button', { name: 'Use the authenticator app instead' }).click();
  await page.getByLabel('Authentication code').fill(totp.generate());
  await page.getByRole('button', { name: 'VERIFY' }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 });

  // Off, with the password and a code; then the password alone signs in.
  await openAccount(page);
  await section.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
  await section.getByLabel('Your password', { exact: true }).fill(PASSWORD);
  await section.getByLabel('Code from your app, or a backup code').fill(totp.generate());
  await section.getByRole('button', { name: 'Turn off', exact: true }).click();
  await expect(section.getByText('Two-factor sign-in is off.')).toBeVisible();
  await page.getByRole('link', { name: 'Back to your wallet' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await signInOnAuthScreen(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 });
});

test('signing out reaches every tab at once, and another browser signed out from the account page leaves within seconds', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const email = await newMember(page);

  // Two tabs of one browser: Logout in one signs the other out at once.
  const tab = await page.context().newPage();
  await tab.goto('/dashboard');
  await expect(tab.getByRole('heading', { name: /^Hello/ })).toBeVisible();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(tab).toHaveURL(/\/$/, { timeout: 2_000 });
  await expect(tab.getByText('You signed out in another tab.')).toBeVisible();
  // The tab that signed out knows it did: one plain line, no security warning.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('You signed out.', { exact: true })).toBeVisible();
  await page.waitForTimeout(1_500); // the server's "signed out" event would arrive by now
  await expect(page.getByText(/another place|in another tab/)).toHaveCount(0);
  await tab.close();

  // Another browser (a phone, say) is signed out from this one's account page.
  await signInOnAuthScreen(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 });
  const phone = await signInBrowser(browser, baseURL!, email);
  await openAccount(page);
  const sessions = page.getByRole('list', { name: 'Your sessions' }).getByRole('listitem');
  await expect(sessions).toHaveCount(2);
  await expect(sessions.filter({ hasText: 'This device' })).toHaveCount(1);
  await expect(sessions.first()).toContainText('Chrome on Linux');
  await capture(page, 'account-sessions', { include: 'section[aria-labelledby="sessions-title"]' });
  const started = Date.now();
  await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await expect(page.getByText('Signed out of 1 other place.')).toBeVisible();
  await expect(sessions).toHaveCount(1);
  await expect(phone.page).toHaveURL(/\/$/, { timeout: 5_000 });
  expect(Date.now() - started).toBeLessThan(5_000); // the event stream, not the 10 s poll
  await expect(
    phone.page.getByText('You were signed out of this device from another place.'),
  ).toBeVisible();
  await phone.context.close();

  // The profile: the greeting uses the name given.
  await page.getByLabel('Your name').fill('Grace Hopper');
  await page.getByLabel('Username').fill('');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByRole('alert')).toContainText('Choose a username');
  await page.getByLabel('Username').fill('grace');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  await page.getByRole('link', { name: 'Back to your wallet' }).click();
  await expect(page.getByRole('heading', { name: 'Hello, Grace Hopper' })).toBeVisible();
});
