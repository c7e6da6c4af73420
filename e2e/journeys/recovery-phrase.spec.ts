// A recovery phrase no member loses (docs/security.md#the-recovery-phrase), in Chromium against the
// real server: a member who closes the tab on the phrase screen is reminded on the dashboard until
// they type the words back; the account page shows the phrase again after the password, opened in
// the wallet worker; wrong passwords and wrong words are said plainly.
import { expect, test } from '../fixtures/test';
import { newEmail, readPhrase, signInOnAuthScreen } from '../fixtures/member';
import { capture } from '../fixtures/screens';
import { noConfirmURL } from '../fixtures/servers';

const PASSWORD = 'Quiet-Harbour-31';

test.use({ baseURL: noConfirmURL });

test('the phrase reminder survives a closed tab, and the words can be seen again with the password', async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  const email = newEmail('phrase-later');
  await page.goto('/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Your recovery code' })).toBeVisible({
    timeout: 120_000,
  });
  const phrase = await readPhrase(page);
  // The member switches apps to find a pen and the tab is gone.
  await page.close();

  const later = await context.newPage();
  await signInOnAuthScreen(later, email, PASSWORD);
  await expect(later).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
  const task = later.getByRole('region', { name: 'Back up your wallet' });
  await expect(task).toBeVisible();
  await capture(later, 'backup-task');
  await task.getByRole('link', { name: 'Back up now' }).click();

  await expect(later.getByRole('heading', { name: 'Back up your wallet', level: 1 })).toBeVisible();
  await later.getByLabel('Password', { exact: true }).fill('not-my-password');
  await later.getByRole('button', { name: 'Show my recovery phrase' }).click();
  await expect(later.getByRole('alert')).toHaveText('That password is not right.', {
    timeout: 30_000,
  });
  await later.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await later.getByRole('button', { name: 'Show my recovery phrase' }).click();
  // The same words, opened in this browser from the keystore with the password.
  await expect(later.getByRole('list', { name: 'Recovery phrase' })).toBeVisible({
    timeout: 30_000,
  });
  expect(await readPhrase(later)).toBe(phrase);
  await capture(later, 'recovery-phrase-shown');
  await later.getByRole('button', { name: 'I have written them down' }).click();

  const words = phrase.split(' ');
  const box = later.getByRole('textbox', { name: 'Your 12 words' });
  await box.fill([words[1], words[0], ...words.slice(2)].join(' '));
  await later.getByRole('button', { name: 'Check my words' }).click();
  await expect(later.getByRole('alert')).toHaveText('Word 1 does not match your recovery code.');
  await box.fill(phrase.toUpperCase());
  await later.getByRole('button', { name: 'Check my words' }).click();
  await expect(later.getByRole('heading', { name: 'Your wallet is backed up' })).toBeVisible({
    timeout: 30_000,
  });

  await later.getByRole('link', { name: 'Back to your wallet' }).last().click();
  await expect(later).toHaveURL(/\/dashboard$/);
  await expect(later.getByRole('heading', { name: /^Hello/ })).toBeVisible();
  await expect(later.getByRole('region', { name: 'Back up your wallet' })).toHaveCount(0);

  // The account page offers the phrase again, now as "Show my recovery phrase".
  await later.goto('/account');
  const section = later.getByRole('region', { name: 'Recovery phrase' });
  await expect(section).toContainText('You checked your 12 words.');
  await section.getByRole('link', { name: 'Show my recovery phrase' }).click();
  await expect(
    later.getByRole('heading', { name: 'Your recovery phrase', level: 1 }),
  ).toBeVisible();
});
