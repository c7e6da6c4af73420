import { Wallet } from 'ethers';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { expectNoSecrets, recordRequests } from '../fixtures/secrets';
import {
  confirmByMail,
  newEmail,
  registerOnRegisterScreen,
  resetPasswordByMail,
  signInOnAuthScreen,
} from '../fixtures/member';

const OLD = 'Old-Password-111';
const NEW = 'New-Password-222';

type Me = { wallet: { address: string; keystore: string } };
const me = (page: Page) =>
  page.evaluate(async () => (await fetch('/api/me')).json()) as Promise<Me>;

/** A confirmed member who then forgets the password and resets it by e-mail; ends on /recover-wallet. */
async function memberAfterReset(page: Page, request: APIRequestContext) {
  const sent = recordRequests(page);
  const email = newEmail('recover');
  const phrase = await registerOnRegisterScreen(page, email, OLD);
  await confirmByMail(page, request, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  const before = await me(page);
  await page.getByRole('button', { name: 'Logout' }).click();

  const resetLink = await resetPasswordByMail(page, request, email, NEW);

  // The link works once.
  await page.goto(resetLink);
  await expect(page.getByText('This reset link is invalid or has expired.')).toBeVisible();

  await signInOnAuthScreen(page, email, NEW);
  await expect(page).toHaveURL(/\/recover-wallet$/, { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Recover your wallet' })).toBeVisible();
  return { email, phrase, before, sent };
}

async function expectRecovered(page: Page, before: Me) {
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
  const after = await me(page);
  expect(after.wallet.address).toBe(before.wallet.address);
  expect((await Wallet.fromEncryptedJson(after.wallet.keystore, NEW)).address).toBe(
    before.wallet.address,
  );
  expect(await page.evaluate(() => localStorage.getItem('allowed'))).toBe('true');
}

test('reset, then recovery with the old password: same address, keystore opens with the new password', async ({
  page,
  request,
}) => {
  const { before, phrase, sent } = await memberAfterReset(page, request);
  // The 12 words are offered first; the old password is the other choice.
  await expect(page.getByLabel('12-word recovery phrase')).toBeChecked();
  await page.getByLabel('Old password').check();
  await page.getByLabel('Your old password', { exact: true }).fill('not-my-old-password');
  await page.getByRole('button', { name: 'Recover' }).click();
  await expect(page.getByRole('alert')).toHaveText('That is not your old password.');
  expect((await me(page)).wallet.keystore).toBe(before.wallet.keystore);

  await page.getByLabel('Your old password', { exact: true }).fill(OLD);
  await page.getByRole('button', { name: 'Recover' }).click();
  await expect(
    page.getByRole('progressbar', { name: 'Securing your wallet with your new password…' }),
  ).toBeVisible();
  await expectRecovered(page, before);
  expectNoSecrets(sent, [OLD, NEW, 'not-my-old-password'], phrase);
});

test('reset, then recovery with the mnemonic: a foreign phrase changes nothing, the right one recovers', async ({
  page,
  request,
}) => {
  const { phrase, before, sent } = await memberAfterReset(page, request);
  await page.getByLabel('Your 12 words').fill(Wallet.createRandom().mnemonic!.phrase);
  await page.getByRole('button', { name: 'Recover' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    "These words don't match this wallet. Check each word and their order.",
  );
  await page.getByLabel('Your 12 words').fill('not a real phrase at all');
  await page.getByRole('button', { name: 'Recover' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'These are not 12 recovery words. Check the spelling of each word.',
  );
  expect((await me(page)).wallet.keystore).toBe(before.wallet.keystore);

  await page.getByLabel('Your 12 words').fill(phrase);
  await page.getByRole('button', { name: 'Recover' }).click();
  await expectRecovered(page, before);
  expectNoSecrets(sent, [OLD, NEW], phrase);
});

test('the recovery screen has a way back and a way out: Back to the sign-in card, Sign out ends the session', async ({
  page,
  request,
}) => {
  const { email } = await memberAfterReset(page, request);
  // Back returns to the sign-in card, from where signing in again leads here again.
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(NEW);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Recover your wallet' })).toBeVisible({
    timeout: 20_000,
  });

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  expect(await page.evaluate(async () => (await fetch('/api/me')).status)).toBe(401);
});
