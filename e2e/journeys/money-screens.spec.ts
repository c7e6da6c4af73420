// The money screens as a member meets them, in Chromium against
// the real server, database, chain and mail: the claim screen's fee check, the dashboard's numbers,
// the convert form, and crypto a newcomer can read.
import type { Page } from '@playwright/test';
import { joinThroughApi, newEmail } from '../fixtures/member';
import { creditCare, ops, opsNoConfirm } from '../fixtures/ops';
import { capture } from '../fixtures/screens';
import { noConfirmURL } from '../fixtures/servers';
import { expect, test } from '../fixtures/test';

const PASSWORD = 'Caring-Friends-9';
const stat = (page: Page, label: string) => page.locator(`dt:text-is("${label}") + dd`);
/** An ETH amount in at most four significant digits, with its £ value. */
const ETH_WITH_GBP =
  /^(0|0\.0*[1-9]\d{0,3}|[1-9]\d*(\.\d{1,3})?) ETH \(≈ (£\d[\d,]*\.\d\d|under £0\.01)\)$/;

const walletAddress = (page: Page) =>
  page.evaluate(async () => (await (await fetch('/api/me')).json()).wallet.address as string);

/** The computed colours of an element and of the theme's danger colour. */
function colours(page: Page, selector: string) {
  return page.evaluate((sel) => {
    const probe = document.createElement('span');
    probe.style.color = 'var(--color-danger)';
    document.body.append(probe);
    const danger = getComputedStyle(probe).color;
    probe.remove();
    const style = getComputedStyle(document.querySelector(sel)!);
    return { danger, color: style.color, border: style.borderTopColor };
  }, selector);
}

test('the claim screen says before the password whether the ETH covers the fee, and claims as soon as ETH arrives', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const email = newEmail('fee-check');
  await joinThroughApi(page, { email, password: PASSWORD });
  const address = await walletAddress(page);
  expect(await ops('distribute', '--publish')).toMatch(
    /(Published|Finished the interrupted) round \d+|Nothing changed/,
  );
  await expect(page.getByTestId('tokens-to-claim')).toHaveText('200.00');

  // With 0 ETH: said before any password is asked, and no password is asked.
  await page.getByRole('button', { name: 'Claim 200.00 REME' }).click();
  await expect(page.getByTestId('fee-check')).toContainText(
    /Your wallet needs .* more to pay the fee/,
  );
  await expect(page.getByLabel('Password', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Complete' })).toHaveCount(0);
  await expect(stat(page, 'Transaction fee')).toHaveText(ETH_WITH_GBP);
  await expect(stat(page, 'Your ETH balance')).toHaveText('0 ETH (≈ £0.00)');
  await capture(page, 'claim-fee-short');

  // The ETH arrives while the screen is open: it sees it, and the claim goes through at once.
  expect(await ops('fund', address, '0.05')).toContain('Sent 0.05 ETH');
  await expect(page.getByTestId('fee-check')).toHaveText('Your ETH covers the fee.', {
    timeout: 20_000,
  });
  await expect(stat(page, 'Your ETH balance')).toHaveText('0.05 ETH (≈ £100.00)');
  await capture(page, 'claim-fee-covered');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Complete' }).click();
  // Unlocking the wallet (scrypt) is slow on a busy machine.
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 90_000 });
  await expect(page.getByRole('heading', { name: 'Claim confirmed' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByTestId('reme-balance')).toHaveText('200.00');
  await expect(page).not.toHaveURL(/insufficient-balance/);
});

test('plain crypto: the contracts folded away from the wallet, fees in a few digits with £, test ETH and a faucet, transactions linked', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const email = newEmail('plain-crypto');
  await joinThroughApi(page, { email, password: PASSWORD });
  const token = (await page.evaluate(
    async () => (await (await fetch('/api/config')).json()).chain.tokenAddress,
  )) as string;

  // The token contract is no longer right under "Your wallet" with a Copy button.
  await expect(page.getByRole('button', { name: 'Copy Your wallet' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Copy REME token contract/ })).toHaveCount(0);
  const experts = page.getByTestId('expert-details');
  await expect(experts.getByText(token)).toBeHidden();
  await experts.getByText('Details for experts').click();
  await expect(experts.getByText(token)).toBeVisible();
  await expect(experts).toContainText('never send anything to them');
  await capture(page, 'dashboard-experts');

  // On this test network, the fee and how to get ETH for it: test ETH, no "Buy ETH".
  expect(await ops('distribute', '--publish')).toMatch(
    /(Published|Finished the interrupted) round \d+|Nothing changed/,
  );
  await page.getByRole('button', { name: 'Claim 200.00 REME' }).click();
  await expect(stat(page, 'Transaction fee')).toHaveText(ETH_WITH_GBP);
  await expect(stat(page, 'Tokens to claim')).toHaveText('200.00 REME (≈ £20.00)');
  await page.getByRole('button', { name: 'How to add ETH' }).click();
  await expect(page.getByRole('heading', { name: 'ETH balance insufficient' })).toBeVisible();
  await expect(
    page.getByText(/network fee of about 0\.0*[1-9]\d{0,3} test ETH \(≈ £\d+\.\d\d\)/),
  ).toBeVisible();
  await expect(
    page.getByText('This is a test network, so the ETH you need is test ETH, which is free.', {
      exact: false,
    }),
  ).toBeVisible();
  await expect(page.getByText(/Buy ETH/)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Learn how to do that' })).toHaveCount(0);
  await capture(page, 'insufficient-test-eth');

  // A claim's transaction: shortened and linked to the explorer, never the raw hash alone.
  await page.getByRole('button', { name: 'Go back' }).click();
  expect(await ops('fund', await walletAddress(page), '0.05')).toContain('Sent 0.05 ETH');
  await page.getByRole('button', { name: 'Claim 200.00 REME' }).click();
  await expect(page.getByTestId('fee-check')).toHaveText('Your ETH covers the fee.');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Complete' }).click();
  await expect(page.getByRole('heading', { name: 'Claim confirmed' })).toBeVisible({
    timeout: 90_000,
  });
  await capture(page, 'dashboard-claim-confirmed');
  const link = page.getByRole('link', { name: /See it on the block explorer/ });
  await expect(link).toHaveAttribute(
    'href',
    /^https:\/\/sepolia\.etherscan\.io\/tx\/0x[0-9a-f]{64}$/,
  );
  await expect(page.getByText(/0x[0-9a-f]{64}/)).toHaveCount(0);
});

test.describe('on the server whose community pays claim fees', () => {
  test.use({ baseURL: noConfirmURL });

  test('the CAPs total once, a gauge toward the next milestone, CAPs available explained, one rate', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const email = newEmail('numbers');
    await joinThroughApi(page, { email, password: PASSWORD });
    const main = page.getByRole('main');
    await expect(page.getByTestId('caps-balance')).toHaveText('200');

    // A new member's gauge is not full: it measures the way to the next milestone, and says so.
    await expect(
      page.getByRole('img', { name: 'Progress to your next milestone, in CAPs: 200 of 500' }),
    ).toBeVisible();
    await expect(main.getByText('Next milestone: 500 CAPs')).toBeVisible();
    // The total once (the balance), and the registration CAPs it is made of: two 200s, not four.
    await expect(main.getByText('200', { exact: true })).toHaveCount(2);
    await capture(page, 'dashboard-new-member');

    // A new member has no care CAPs: the Convert dialog says where they come from, no dead button.
    await page.getByRole('button', { name: 'Convert CAPs to REME' }).click();
    const dialog = page.getByRole('dialog', { name: 'Convert care CAPs to REME' });
    await expect(dialog.getByTestId('nothing-to-convert')).toContainText(
      'You have no care CAPs to convert yet.',
    );
    await expect(dialog.getByRole('button', { name: /^Convert/ })).toHaveCount(0);
    await page.keyboard.press('Escape');

    expect(await creditCare(opsNoConfirm, email, 150)).toBeTruthy();
    await expect(page.getByTestId('caps-balance')).toHaveText('350');
    // The dialog and the page show one rate and the same figures.
    await page.getByRole('button', { name: 'Convert CAPs to REME' }).click();
    await expect(dialog.getByTestId('convert-rate')).toHaveText(
      '6.028 CAPs per REME (1 CAP ≈ 0.1659 REME)',
    );
    await expect(dialog.getByTestId('convert-receive')).toHaveText('24.88 REME');
    await page.keyboard.press('Escape');
    await page.goto('/convert-caps');
    await expect(page.getByTestId('caps-available')).toHaveText('150');
    await expect(page.getByTestId('caps-available-why')).toHaveText(
      'Of your 350 CAPs, 150 were earned for care. The 200 for joining and inviting are paid as REME on their own.',
    );
    await expect(page.getByTestId('convert-rate')).toHaveText(
      '6.028 CAPs per REME (1 CAP ≈ 0.1659 REME)',
    );
    await expect(page.getByTestId('convert-receive')).toHaveText('24.88 REME');
    await expect(page.getByText(/market price of £0\.10/)).toBeVisible();
    await expect(page.getByText(/£6\.03/)).toHaveCount(0);

    // It starts at the maximum, and the maximum is not an error: nothing is red.
    const input = await colours(page, '#convert-amount');
    expect(input.color).not.toBe(input.danger);
    expect(input.border).not.toBe(input.danger);
    const limit = await colours(page, '#convert-limit');
    expect(limit.color).not.toBe(limit.danger);
    // An emptied field disables the button; an amount names it.
    const field = page.getByRole('spinbutton', { name: 'CAPs to convert' });
    await field.fill('');
    await expect(page.getByRole('button', { name: 'Convert', exact: true })).toBeDisabled();
    await field.fill('60');
    await expect(page.getByRole('button', { name: 'Convert 60 CAPs' })).toBeEnabled();
  });

  test('plain crypto with a sponsored claim: no ETH check, the transaction linked', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await joinThroughApi(page, { email: newEmail('sponsored-link'), password: PASSWORD });
    expect(await opsNoConfirm('distribute', '--publish')).toMatch(
      /(Published|Finished the interrupted) round \d+|Nothing changed/,
    );
    await page.getByRole('button', { name: 'Claim 200.00 REME' }).click();
    await expect(stat(page, 'Transaction fee')).toHaveText('Free — your community pays the fee');
    await expect(page.getByTestId('fee-check')).toHaveCount(0);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Complete' }).click();
    const card = page.getByTestId('sponsored-claim');
    await expect(card.getByRole('heading', { name: 'Claim confirmed' })).toBeVisible({
      timeout: 90_000,
    });
    await expect(card.getByRole('link', { name: /See it on the block explorer/ })).toHaveAttribute(
      'href',
      /\/tx\/0x[0-9a-f]{64}$/,
    );
    await expect(card.getByText(/0x[0-9a-f]{64}/)).toHaveCount(0);
  });
});
