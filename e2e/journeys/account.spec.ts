// The account page's password change, data download and account deletion in Chromium
// against the real server: one step re-locks the wallet and changes the login, other browsers are
// signed out; the download is the member's JSON; deletion names what the member gives up, offers
// Claim first, asks once (DELETE typed), signs out and frees the e-mail while the referrer keeps
// every CAP. A password change shows as "Password changed" in the bell of another open tab, live,
// and is mailed. Screenshots of the three sections at 375 and 1280 px
// in both themes, checked by axe (copied to $SHOTS_DIR when set).
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { Wallet } from 'ethers';
import { expectNoSecrets, recordRequests } from '../fixtures/secrets';
import {
  confirmByMail,
  joinThroughApi,
  joinThroughLink,
  newEmail,
  referralLinkOf,
  registerOnRegisterScreen,
  signInOnAuthScreen,
  waitForMail,
} from '../fixtures/member';
import { capture } from '../fixtures/screens';
import { expect, test } from '../fixtures/test';

const OLD = 'Old-Password-111';
const NEW = 'New-Password-222';
const PASSWORD = 'Caring-Friends-9';
const CONFIRM = 'Delete your account for good?';

type Me = {
  email: string;
  wallet: { address: string; keystore: string };
  caps: Record<string, number>;
};
const me = (page: Page) =>
  page.evaluate(async () => (await fetch('/api/me')).json()) as Promise<Me>;
const apiStatus = (page: Page, url: string) =>
  page.evaluate(async (u) => (await fetch(u)).status, url);

async function openAccountPage(page: Page) {
  await page.getByRole('link', { name: 'Account' }).click();
  await expect(page.getByRole('heading', { name: 'Account and security' })).toBeVisible();
}

test('change password: one step re-locks the wallet, the old password stops working, another browser is signed out', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(480_000);
  const sent = recordRequests(page);
  const email = newEmail('change');
  const phrase = await registerOnRegisterScreen(page, email, OLD);
  await confirmByMail(page, request, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  const before = await me(page);

  // The same member signed in on another browser, on the dashboard.
  const context = await browser.newContext();
  const other = await context.newPage();
  await signInOnAuthScreen(other, email, OLD);
  await expect(other).toHaveURL(/\/dashboard$/, { timeout: 30_000 });

  // A second tab of this browser stays on the dashboard, everything in its bell seen.
  const tab = await page.context().newPage();
  await tab.goto('/dashboard');
  await tab.getByRole('button', { name: /^Notifications/ }).click();
  await expect(tab.getByRole('dialog', { name: 'Notifications' })).toContainText(
    'You joined the community',
  );
  await tab.keyboard.press('Escape');
  await expect(tab.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();

  await openAccountPage(page);
  const section = page.getByRole('region', { name: 'Password' });
  // The rules of /register, in plain words, before any work starts.
  await section.getByLabel('Current password', { exact: true }).fill(OLD);
  await section.getByLabel('New password', { exact: true }).fill('short');
  await section.getByLabel('Confirm new password', { exact: true }).fill('short');
  await section.getByRole('button', { name: 'Change password' }).click();
  await expect(section.getByRole('alert')).toHaveText(
    'Password must be at least 8 characters long',
  );
  // A wrong current password changes nothing.
  await section.getByLabel('Current password', { exact: true }).fill('Not-My-Password-1');
  await section.getByLabel('New password', { exact: true }).fill(NEW);
  await section.getByLabel('Confirm new password', { exact: true }).fill(NEW);
  await section.getByRole('button', { name: 'Change password' }).click();
  await expect(section.getByRole('alert')).toHaveText('Your current password is not correct.', {
    timeout: 120_000,
  });
  expect((await me(page)).wallet.keystore).toBe(before.wallet.keystore);

  await section.getByLabel('Current password', { exact: true }).fill(OLD);
  await section.getByRole('button', { name: 'Change password' }).click();
  await expect(
    section.getByRole('progressbar', { name: 'Securing your wallet with your new password…' }),
  ).toBeVisible();
  await expect(section.getByRole('status')).toContainText('Your password has been changed.', {
    timeout: 120_000,
  });
  await expect(section.getByRole('status')).toContainText(
    'You were signed out on your other devices.',
  );
  // The change is a security event: live in the other tab's bell, and a mail naming the device.
  await expect(tab.getByRole('button', { name: 'Notifications, 1 new' })).toBeVisible({
    timeout: 5_000,
  });
  await tab.getByRole('button', { name: 'Notifications, 1 new' }).click();
  await expect(
    tab.getByRole('dialog', { name: 'Notifications' }).getByRole('listitem').first(),
  ).toHaveText(/^NewPassword changed/);
  await tab.close();
  const mail = await waitForMail(request, email, 'Your password was changed');
  expect(mail.text).toContain('Device: Chrome on Linux');
  expect(mail.text).toContain('Not you? Change your password');

  // The other browser's session is gone: its dashboard leaves for the start page (it polls
  // /api/me every 10 s), and any call it makes is refused.
  await expect(other).toHaveURL(/\/$/, { timeout: 15_000 });
  await expect(other.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  expect(await apiStatus(other, '/api/me')).toBe(401);
  await context.close();

  // Same wallet, now locked with the new password.
  const after = await me(page);
  expect(after.wallet.address).toBe(before.wallet.address);
  expect(after.wallet.keystore).not.toBe(before.wallet.keystore);
  expect((await Wallet.fromEncryptedJson(after.wallet.keystore, NEW)).address).toBe(
    before.wallet.address,
  );

  // The old password no longer signs in; the new one does and opens the wallet (the dashboard,
  // not the recovery screen).
  await page.getByRole('link', { name: 'Back to your wallet' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await signInOnAuthScreen(page, email, OLD);
  await expect(page.getByRole('alert')).toHaveText(
    'Invalid email or password. Please check your credentials.',
  );
  await signInOnAuthScreen(page, email, NEW);
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
  expect((await me(page)).wallet.address).toBe(before.wallet.address);
  expectNoSecrets(sent, [OLD, NEW, 'Not-My-Password-1'], phrase);
});

test('download my data: a JSON file with the member’s data; screenshots of the three sections', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const email = newEmail('export');
  await joinThroughApi(page, { email, password: PASSWORD });
  await openAccountPage(page);

  const section = page.getByRole('region', { name: 'Your data' });
  const download = page.waitForEvent('download');
  await section.getByRole('button', { name: 'Download my data' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^community-rewards-data-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(readFileSync(await file.path(), 'utf8'));
  expect(data.profile.email).toBe(email);
  expect(data.wallet.address).toBe((await me(page)).wallet.address);
  expect(data.ledger[0]).toMatchObject({ kind: 'signup', caps: 200 });
  await expect(section.getByRole('status')).toHaveText(`Downloaded ${file.suggestedFilename()}.`);

  await capture(page, 'account');
  // The password section at work and the first deletion question.
  const password = page.getByRole('region', { name: 'Password' });
  await password.getByLabel('Current password', { exact: true }).fill(PASSWORD);
  await password.getByLabel('New password', { exact: true }).fill('x');
  await password.getByLabel('Confirm new password', { exact: true }).fill('y');
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(password.getByRole('alert')).toBeVisible();
  await password.screenshot({ path: test.info().outputPath('password-error.png') });
  const removal = page.getByRole('region', { name: 'Delete account' });
  await removal.getByLabel('Your password', { exact: true }).fill(PASSWORD);
  await removal.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page.getByRole('alertdialog', { name: CONFIRM })).toBeVisible();
  await capture(page, 'account-delete-dialog', { include: '[role="alertdialog"]' });
  await page.getByRole('button', { name: 'Keep my account' }).click();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  expect(await apiStatus(page, '/api/me')).toBe(200);
});

test('delete account: one confirmation with DELETE typed, signed out to the start page, cannot sign in, the referrer keeps every CAP, the e-mail can join again', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  // The referrer, with their dashboard in another browser.
  const referrerContext = await browser.newContext({
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const referrer = await referrerContext.newPage();
  const referrerEmail = newEmail('referrer');
  await joinThroughApi(referrer, { email: referrerEmail, password: PASSWORD });
  const link = await referralLinkOf(referrer);

  const email = newEmail('leaving');
  await joinThroughLink(page, request, link, email, PASSWORD);
  await expect.poll(async () => (await me(referrer)).caps.referrals).toBe(100);
  const referrerCaps = (await me(referrer)).caps;

  await openAccountPage(page);
  const removal = page.getByRole('region', { name: 'Delete account' });
  await expect(removal).toContainText('The REME tokens in it stay yours');
  await expect(removal).toContainText('only your 12-word recovery phrase opens it');
  // The joining bonus waits for the next payout: said in REME, not as "CAPs are lost".
  await expect(removal).toContainText('You give up 200.00 REME coming in the next payout.');
  const confirmation = page.getByRole('alertdialog', { name: CONFIRM });
  const word = confirmation.getByRole('textbox', { name: 'Type DELETE to confirm' });
  const destroy = confirmation.getByRole('button', { name: 'Delete permanently' });

  // A wrong password: the confirmation, then the reason, and the account stays.
  await removal.getByLabel('Your password', { exact: true }).fill('Not-My-Password-1');
  await removal.getByRole('button', { name: 'Delete my account' }).click();
  await expect(confirmation).toContainText(
    'You give up 200.00 REME coming in the next payout. This cannot be undone.',
  );
  await expect(destroy).toBeDisabled();
  await word.fill('DELETE');
  await destroy.click();
  await expect(removal.getByRole('alert')).toHaveText(
    'Failed to delete account: Your current password is not correct.',
  );
  expect(await apiStatus(page, '/api/me')).toBe(200);

  // Keep my account deletes nothing; a double press of Delete my account deletes nothing either.
  await removal.getByLabel('Your password', { exact: true }).fill(PASSWORD);
  await removal.getByRole('button', { name: 'Delete my account' }).click();
  await confirmation.getByRole('button', { name: 'Keep my account' }).click();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await removal.getByRole('button', { name: 'Delete my account' }).dblclick();
  await expect(destroy).toBeDisabled();
  await confirmation.getByRole('button', { name: 'Keep my account' }).click();
  expect(await apiStatus(page, '/api/me')).toBe(200);

  // DELETE typed: deleted, signed out, on the start page.
  await removal.getByRole('button', { name: 'Delete my account' }).click();
  await word.fill('DELETE');
  await destroy.click();
  await expect(page.getByText('Account deleted successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  // Only that line: no "signed out from another place" over it.
  await page.waitForTimeout(1_500);
  await expect(page.getByText(/another place|in another tab/)).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('allowed'))).toBeNull();
  expect(await apiStatus(page, '/api/me')).toBe(401);

  // The member cannot sign in; the referrer's CAPs are unchanged.
  await signInOnAuthScreen(page, email, PASSWORD);
  await expect(page.getByRole('alert')).toHaveText(
    'Invalid email or password. Please check your credentials.',
  );
  expect((await me(referrer)).caps).toEqual(referrerCaps);
  await referrerContext.close();

  // The same e-mail can join again, as a new member.
  await registerOnRegisterScreen(page, email, NEW);
  await confirmByMail(page, request, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  expect((await me(page)).email).toBe(email);
});
