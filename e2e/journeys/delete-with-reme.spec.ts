// Deleting an account with REME to claim (docs/product.md, account screens), in Chromium against
// the real server and chain: the account page says the amount and offers Claim first; the member
// claims (free: the community pays the fee) and comes back to nothing waiting.
import { expect, test } from '../fixtures/test';
import { joinThroughApi, newEmail } from '../fixtures/member';
import { opsNoConfirm } from '../fixtures/ops';
import { capture } from '../fixtures/screens';
import { noConfirmURL } from '../fixtures/servers';

const PASSWORD = 'Caring-Friends-9';

test.use({ baseURL: noConfirmURL });

test('deleting with REME to claim offers Claim first, and after the claim nothing is given up', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await joinThroughApi(page, { email: newEmail('leave-later'), password: PASSWORD });
  expect(await opsNoConfirm('distribute', '--publish')).toMatch(
    /(Published|Finished the interrupted) round \d+/,
  );
  await expect(page.getByTestId('tokens-to-claim')).toHaveText('200.00');

  await page.goto('/account');
  const removal = page.getByRole('region', { name: 'Delete account' });
  await expect(removal.getByTestId('claim-first')).toContainText(
    'You have 200.00 REME to claim. Claim them first',
  );
  await expect(removal).toContainText('You give up 200.00 REME you can claim now.');
  await removal.getByLabel('Your password', { exact: true }).fill(PASSWORD);
  await removal.getByRole('button', { name: 'Delete my account' }).click();
  const confirmation = page.getByRole('alertdialog', { name: 'Delete your account for good?' });
  await expect(confirmation).toContainText('You give up 200.00 REME you can claim now.');
  await capture(page, 'delete-with-reme', { include: '[role="alertdialog"]' });
  await confirmation.getByRole('button', { name: 'Keep my account' }).click();
  await capture(page, 'delete-claim-first');

  await removal.getByRole('link', { name: 'Claim first' }).click();
  await expect(page).toHaveURL(/\/claim$/);
  await expect(page.locator('dt:text-is("Transaction fee") + dd')).toHaveText(
    'Free — your community pays the fee',
  );
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Complete' }).click();
  await expect(
    page.getByTestId('sponsored-claim').getByRole('heading', { name: 'Claim confirmed' }),
  ).toBeVisible({ timeout: 30_000 });

  await page.goto('/account');
  await expect(removal.getByTestId('claim-first')).toHaveCount(0);
  await expect(removal).toContainText('You have nothing waiting to be claimed or converted.');
});
