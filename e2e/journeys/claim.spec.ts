import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { joinThroughApi, newEmail, referralCodeOf, referralLinkOf } from '../fixtures/member';
import { ops } from '../fixtures/ops';

const PASSWORD = 'Caring-Friends-9';
const stat = (page: Page, label: string) => page.locator(`dt:text-is("${label}") + dd`);
/** Opening the wallet (scrypt) in the browser: well over 30 s on a machine shared by many runs. */
const UNLOCK = { timeout: 120_000 };

/** The wallet's REME balance as the chain reports it (eth_call balanceOf through /rpc). */
async function remeOnChain(page: Page): Promise<bigint> {
  const hex = await page.evaluate(async () => {
    const me = await (await fetch('/api/me')).json();
    const config = await (await fetch('/api/config')).json();
    const data = `0x70a08231${me.wallet.address.slice(2).toLowerCase().padStart(64, '0')}`;
    const res = await fetch('/rpc', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_call',
        params: [{ to: config.chain.tokenAddress, data }, 'latest'],
      }),
    });
    return (await res.json()).result as string;
  });
  return BigInt(hex);
}

async function claimInBrowser(page: Page, amount: string) {
  await page.getByRole('button', { name: `Claim ${amount} REME` }).click();
  await expect(page.getByRole('heading', { name: /^Claim \d+\.\d\d REME$/ })).toBeVisible();
  await expect(page.locator('dt:text-is("Tokens to claim") + dd')).toHaveText(
    new RegExp(`^${amount.replace('.', '\\.')} REME \\(≈ £\\d+\\.\\d\\d\\)$`),
  );
  // The fee in a few digits with its £ value, never 18 decimals.
  await expect(page.locator('dt:text-is("Transaction fee") + dd')).toHaveText(
    /^0\.0*[1-9]\d{0,3} ETH \(≈ £\d+\.\d\d\)$/,
  );
  // This server's community does not pay members' fees (SPONSOR_CLAIMS=false): the screen says so.
  await expect(
    page.getByText(
      'You pay the network fee for this claim. This community does not pay claim fees for its members.',
    ),
  ).toBeVisible();
  await expect(page.getByTestId('fee-check')).toHaveText('Your ETH covers the fee.');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Complete' }).click();
}

test('claim: distribute, insufficient ETH, fund, claim in the browser, then only the increase after a new referral', async ({
  page,
  browser,
}) => {
  test.setTimeout(600_000); // four wallet unlocks and a friend's sign-up: slow on a shared machine
  const email = newEmail('claimer');
  await joinThroughApi(page, { email, password: PASSWORD });
  const address = (await page.evaluate(
    async () => (await (await fetch('/api/me')).json()).wallet.address,
  )) as string;
  await expect(page.getByTestId('tokens-to-claim')).toHaveText('0.00');
  // Nothing to claim yet: no Claim button, but when the REME come.
  await expect(page.getByRole('button', { name: /^Claim .* REME$/ })).toHaveCount(0);
  await expect(page.getByTestId('next-step')).toHaveText(
    'Your 200.00 REME are paid in the next payout. They will show here, ready to claim.',
  );

  // The operator publishes a round; the open dashboard hears of it and offers the signup bonus.
  expect(await ops('distribute')).toContain('(dry run)');
  expect(await ops('distribute', '--publish')).toMatch(
    /(Published|Finished the interrupted) round \d+/,
  );
  await expect(page.getByTestId('tokens-to-claim')).toHaveText('200.00');
  await expect(stat(page, 'Signup claim')).toHaveText('200.00');
  await expect(stat(page, 'Referral claim')).toHaveText('0.00');

  // With 0 ETH the claim screen says so before asking for the password, and shows how
  // to add ETH: the insufficient-balance screen with the fee and the wallet address. This is a test
  // network with no public faucet: test ETH from the community's organisers, never "Buy ETH".
  await page.getByRole('button', { name: 'Claim 200.00 REME' }).click();
  await expect(page.getByTestId('fee-check')).toContainText(
    /Your wallet needs 0\.\d+ test ETH \(≈ £\d+\.\d\d\) more to pay the fee/,
  );
  await expect(page.getByLabel('Password', { exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: 'How to add ETH' }).click();
  await expect(page.getByRole('heading', { name: 'ETH balance insufficient' })).toBeVisible();
  await expect(page.getByText(/network fee of about 0\.\d+ test ETH/)).toBeVisible();
  await expect(
    page.getByText(/Ask your community's organisers to send some to your wallet address below/),
  ).toBeVisible();
  await expect(page.getByLabel('Your wallet address')).toHaveText(address);
  await page.getByRole('button', { name: 'Go back' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // Funded, a wrong password is 'That password is not right.'; the right one claims. The claim screen reads the
  // ETH balance from the chain on arrival: the dashboard need not reload.
  expect(await ops('fund', address, '0.05')).toContain('Sent 0.05 ETH');
  await page.getByRole('button', { name: 'Claim 200.00 REME' }).click();
  await expect(stat(page, 'Your ETH balance')).toHaveText('0.05 ETH (≈ £100.00)');
  await page.getByLabel('Password', { exact: true }).fill('not-my-password');
  await page.getByRole('button', { name: 'Complete' }).click();
  await expect(page.getByRole('alert')).toHaveText('That password is not right.', UNLOCK);
  await page.getByRole('button', { name: 'Cancel' }).click();
  const before = await remeOnChain(page);
  await claimInBrowser(page, '200.00');
  await expect(page).toHaveURL(/\/dashboard$/, UNLOCK);
  await expect(page.getByRole('heading', { name: /Processing|Claim confirmed/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Claim confirmed' })).toBeVisible();
  // Nothing left to claim or coming: no rows of zeros, what comes next instead.
  await expect(page.getByTestId('tokens-to-claim')).toHaveCount(0);
  await expect(page.getByTestId('next-step')).toBeVisible();
  await expect(page.getByTestId('reme-balance')).toHaveText('200.00');
  expect((await remeOnChain(page)) - before).toBe(200n * 10n ** 18n);

  // A friend joins through the link; the next round adds only the referral reward.
  const link = await referralLinkOf(page);
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  await joinThroughApi(await context.newPage(), {
    password: PASSWORD,
    referralCode: referralCodeOf(link),
  });
  await context.close();
  expect(await ops('distribute', '--publish')).toMatch(/Published round \d+/);
  await expect(page.getByTestId('tokens-to-claim')).toHaveText('100.00');
  await expect(stat(page, 'Signup claim')).toHaveText('0.00');
  await expect(stat(page, 'Referral claim')).toHaveText('100.00');

  await page.getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByRole('heading', { name: 'Claim confirmed' })).toHaveCount(0);

  // A hand-made claim with a tampered amount is refused by the chain: 'Claim failed!'.
  await page.route('**/api/claim', async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    await route.fulfill({
      response,
      json: { ...body, distributedTokens: (BigInt(body.distributedTokens) + 1n).toString() },
    });
  });
  await page.getByRole('button', { name: 'Claim 100.00 REME' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Claim failed!' })).toBeVisible();
  await page.unroute('**/api/claim');
  await page.getByRole('button', { name: 'Cancel' }).click();

  const beforeSecond = await remeOnChain(page);
  await claimInBrowser(page, '100.00');
  await expect(page.getByRole('heading', { name: 'Claim confirmed' })).toBeVisible(UNLOCK);
  await expect(page.getByTestId('reme-balance')).toHaveText('300.00');
  expect((await remeOnChain(page)) - beforeSecond).toBe(100n * 10n ** 18n);
  await page.screenshot({ path: 'test-results/claim-dashboard.png', fullPage: true });
});
