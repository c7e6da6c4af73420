// Care that pays (docs/product.md#caps-and-reme), in Chromium against the real server, database and
// chain: an operator credits care CAPs, the member converts some of them, a round pays the
// converted REME with the joining bonus, and the member claims it on chain (the community pays the
// fee); the conversion then says which round paid it. Refused input keeps the amount.
import { expect, test } from '../fixtures/test';
import { joinThroughApi, newEmail } from '../fixtures/member';
import { creditCare, opsNoConfirm } from '../fixtures/ops';
import { capture } from '../fixtures/screens';
import { noConfirmURL } from '../fixtures/servers';

const PASSWORD = 'Caring-Friends-9';

test.use({ baseURL: noConfirmURL });

test('care CAPs converted to REME, paid in the next round and claimed on chain', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const email = newEmail('convert');
  await joinThroughApi(page, { email, password: PASSWORD });
  await creditCare(opsNoConfirm, email, 150);
  await expect(page.getByTestId('caps-balance')).toHaveText('350');

  await page.goto('/convert-caps');
  const field = page.getByRole('spinbutton', { name: 'CAPs to convert' });
  await expect(field).toHaveValue('150');
  await field.fill('60');
  await expect(page.getByTestId('convert-receive')).toHaveText('9.95 REME');
  await capture(page, 'convert-form');
  await page.getByRole('button', { name: 'Convert 60 CAPs' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Converted' })).toHaveText(
    'Converted 60 CAPs → 9.95 REME, paid in the next round',
  );
  await expect(page.getByTestId('caps-available')).toHaveText('90');
  await expect(page.getByTestId('reme-incoming')).toHaveText('209.95');
  await expect(page.getByTestId('conversions')).toContainText(
    'Converted 60 CAPs → 9.95 REME, paid in the next round',
  );
  await capture(page, 'convert-done');

  // More than is left: the server refuses, the page says why and keeps the amount.
  await field.fill('90');
  await page.evaluate(async () => {
    // Another tab converts 50 of the 90 meanwhile (the page still offers 90).
    await fetch('/api/conversions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ caps: 50, requestId: crypto.randomUUID() }),
    });
  });
  await page.getByRole('button', { name: 'Convert 90 CAPs' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'You do not have that many care CAPs left to convert. Reload the page to see what you have.',
  );
  await expect(page.getByTestId('caps-available')).toHaveText('40');

  // The round pays the joining bonus and both conversions; the member claims it on chain.
  expect(await opsNoConfirm('distribute', '--publish')).toMatch(
    /(Published|Finished the interrupted) round \d+/,
  );
  await page.goto('/dashboard');
  const total = '218.24'; // 200 + 60 / 6.028 + 50 / 6.028, each rounded down
  await expect(page.getByTestId('tokens-to-claim')).toHaveText(total);
  await page.getByRole('button', { name: `Claim ${total} REME` }).click();
  await expect(page.locator('dt:text-is("Transaction fee") + dd')).toHaveText(
    'Free — your community pays the fee',
  );
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Complete' }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
  await expect(
    page.getByTestId('sponsored-claim').getByRole('heading', { name: 'Claim confirmed' }),
  ).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('reme-balance')).toHaveText(total, { timeout: 15_000 });

  await page.goto('/convert-caps');
  await expect(page.getByTestId('conversions')).toContainText(/paid in round \d+/);
  await expect(page.getByTestId('conversions')).not.toContainText('paid in the next round');
});
