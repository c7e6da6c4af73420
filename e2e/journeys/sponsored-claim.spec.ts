// A member with 0 ETH claims in Chromium, the community pays the network
// fee through the relayer, the REME arrive and the dashboard shows them; the sponsor's spend is
// recorded. The Processing card follows the claim live and survives a reload.
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { joinThroughApi, newEmail } from '../fixtures/member';
import { opsNoConfirm } from '../fixtures/ops';
import { noConfirmURL } from '../fixtures/servers';

const PASSWORD = 'Caring-Friends-9';

test.use({ baseURL: noConfirmURL });

async function ethOnChain(page: Page): Promise<bigint> {
  const hex = await page.evaluate(async () => {
    const me = await (await fetch('/api/me')).json();
    const res = await fetch('/rpc', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_getBalance',
        params: [me.wallet.address, 'latest'],
      }),
    });
    return (await res.json()).result as string;
  });
  return BigInt(hex);
}

for (const width of [375, 1280]) {
  test(`sponsored claim at ${width} px: no ETH needed, the community pays the fee, the REME arrive`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await joinThroughApi(page, { email: newEmail(`sponsored-${width}`), password: PASSWORD });
    expect(await opsNoConfirm('distribute', '--publish')).toMatch(
      /(Published|Finished the interrupted) round \d+|Nothing changed/,
    );
    await expect(page.getByTestId('tokens-to-claim')).toHaveText('200.00');
    expect(await ethOnChain(page)).toBe(0n);
    const spentBefore = await opsNoConfirm('relayer');

    await page.getByRole('button', { name: 'Claim 200.00 REME' }).click();
    await expect(page.locator('dt:text-is("Transaction fee") + dd')).toHaveText(
      'Free — your community pays the fee',
    );
    await expect(page.getByText('You need no ETH')).toBeVisible();
    await expect(page.locator('dt:text-is("Your ETH balance")')).toHaveCount(0);
    await page.screenshot({
      path: `test-results/sponsored-claim-screen-${width}.png`,
      fullPage: true,
    });
    await page.getByLabel('Password', { exact: true }).fill('not-my-password');
    await page.getByRole('button', { name: 'Complete' }).click();
    await expect(page.getByRole('alert')).toHaveText('That password is not right.', {
      timeout: 30_000,
    });
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Complete' }).click();

    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
    const card = page.getByTestId('sponsored-claim');
    await expect(card).toBeVisible();
    await page.screenshot({
      path: `test-results/sponsored-claim-processing-${width}.png`,
      fullPage: true,
    });
    await expect(card.getByRole('heading', { name: 'Claim confirmed' })).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.getByTestId('reme-balance')).toHaveText('200.00', { timeout: 15_000 });
    await expect(page.getByTestId('tokens-to-claim')).toHaveCount(0);
    await expect(page.getByTestId('next-step')).toBeVisible();
    expect(await ethOnChain(page)).toBe(0n);
    // The activity tells the story: joined, the payout, the free claim (newest first).
    const activity = page.getByTestId('activity').getByRole('listitem');
    await expect(activity.nth(0)).toContainText('Claimed to your wallet (free)200.00 REME');
    await expect(activity.nth(1)).toContainText('REME ready to claim+200.00 REME');
    await expect(activity.last()).toContainText('You joined the community+200 CAPs');

    // After the first claim, the browser's offer to install the app (as Chrome makes it) becomes
    // the install card; Install asks the browser, and an install closes the card.
    await page.evaluate(() => {
      const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
        prompt: async () => {
          (window as unknown as { installAsked: boolean }).installAsked = true;
        },
        userChoice: Promise.resolve({ outcome: 'accepted' }),
      });
      window.dispatchEvent(offer);
    });
    const install = page.getByRole('region', { name: 'Keep your wallet on your home screen' });
    await expect(install).toBeVisible();
    await install.getByRole('button', { name: 'Install the app' }).click();
    await expect(install).toHaveCount(0);
    expect(
      await page.evaluate(() => (window as unknown as { installAsked: boolean }).installAsked),
    ).toBe(true);

    // The card is the server's record: a reload shows it again, until dismissed.
    await page.reload();
    await expect(
      page.getByTestId('sponsored-claim').getByRole('heading', { name: 'Claim confirmed' }),
    ).toBeVisible();
    await page.screenshot({
      path: `test-results/sponsored-claim-confirmed-${width}.png`,
      fullPage: true,
    });
    await page.getByTestId('sponsored-claim').getByRole('button', { name: 'Dismiss' }).click();
    await expect(page.getByTestId('sponsored-claim')).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('next-step')).toBeVisible();
    await expect(page.getByTestId('tokens-to-claim')).toHaveCount(0);
    await expect(page.getByTestId('sponsored-claim')).toHaveCount(0);

    // The sponsor's spend is recorded.
    const spentAfter = await opsNoConfirm('relayer');
    expect(spentAfter).toMatch(/Claims: 0 queued, 0 sent, \d+ confirmed, 0 failed/);
    expect(spentAfter).not.toBe(spentBefore);
    expect(/Spent today: (\S+) of/.exec(spentAfter)?.[1]).not.toBe('0.0');
  });
}
