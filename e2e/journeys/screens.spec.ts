// Every screen as a member meets it, at 375 px and 1280 px in both themes: screenshots
// saved as artifacts, axe with no serious or critical violation, no sideways scrolling on a phone.
import {
  confirmByMail,
  newEmail,
  resetPasswordByMail,
  saveAndConfirmPhrase,
  signInOnAuthScreen,
} from '../fixtures/member';
import { ops } from '../fixtures/ops';
import { capture } from '../fixtures/screens';
import { expect, test } from '../fixtures/test';

const PASSWORD = 'Caring-Friends-9';
const NEW_PASSWORD = 'Caring-Friends-10';

test('every screen at 375 and 1280 px in both themes passes axe', async ({ page, request }) => {
  test.setTimeout(600_000); // some 25 captures, each with axe: slow on a shared machine
  for (const [path, heading] of [
    ['/', 'Welcome back'],
    ['/signup', 'Create your account'],
    ['/reset-password?token=t&email=a%40b.co', 'Choose a new password'],
    ['/no/such/page', 'Page not found'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading })).toBeVisible();
    await capture(page, path === '/' ? 'auth' : path.slice(1).split(/[/?]/)[0]!);
  }
  await page.goto('/');
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await capture(page, 'auth-reset');

  // Registration, the mnemonic screen, then the member pages.
  const email = newEmail('screens');
  await page.goto('/register');
  await capture(page, 'register');
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  // The wallet is made (scrypt) in the browser: well over 30 s on a machine shared by many runs.
  await expect(page.getByRole('heading', { name: 'Your recovery code' })).toBeVisible({
    timeout: 120_000,
  });
  await capture(page, 'mnemonic');
  await saveAndConfirmPhrase(page);
  await confirmByMail(page, request, email);
  await expect(page.getByRole('heading', { name: 'Hello, Ada Lovelace' })).toBeVisible();
  await capture(page, 'dashboard');

  await page.getByRole('button', { name: 'Convert CAPs to REME' }).click();
  await expect(page.getByRole('dialog', { name: 'Convert care CAPs to REME' })).toBeVisible();
  await capture(page, 'convert-dialog', { include: '[role="dialog"]' });
  await page.keyboard.press('Escape');

  for (const [path, heading] of [
    ['/rcb', 'Hi Ada Lovelace, grow your community'],
    ['/community-builder', 'Ada Lovelace'],
    ['/convert-caps', 'Convert CAPs'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
    await capture(page, path.slice(1));
  }

  // The claim screen with 0 ETH (it says so before asking for the password), and the
  // insufficient-balance screen it leads to.
  await ops('distribute', '--publish');
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Claim 200.00 REME' }).click();
  await expect(page.getByRole('heading', { name: /^Claim \d+\.\d\d REME$/ })).toBeVisible();
  await expect(page.getByTestId('fee-check')).toContainText('Your wallet needs');
  await capture(page, 'claim');
  await page.getByRole('button', { name: 'How to add ETH' }).click();
  await expect(page.getByRole('heading', { name: 'ETH balance insufficient' })).toBeVisible();
  await capture(page, 'insufficient-balance');

  // After a password reset, the recovery screen.
  await page.getByRole('button', { name: 'Go back' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await resetPasswordByMail(page, request, email, NEW_PASSWORD);
  await signInOnAuthScreen(page, email, NEW_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Recover your wallet' })).toBeVisible({
    timeout: 120_000,
  });
  await capture(page, 'recover-wallet');
});
