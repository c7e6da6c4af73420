// The controls a member meets wear the theme. A page on its way shows its
// shape, not "Loading…"; toasts take the theme's colours, not black; a disabled button looks
// unavailable; the Rewards Hub is marked coming soon, not struck through; the Processing card of a
// claim on its way turns a spinner. Checks are soft: a run reports every control that is wrong.
import type { Locator, Page } from '@playwright/test';
import { joinThroughApi, newEmail } from '../fixtures/member';
import { creditCare, ops } from '../fixtures/ops';
import { expect, test } from '../fixtures/test';

const PASSWORD = 'Caring-Friends-9';

/** A theme colour (a custom property of theme.css) as the browser computes it, e.g. "rgb(…)". */
function themeColour(page: Page, property: string): Promise<string> {
  return page.evaluate((name) => {
    const probe = document.createElement('span');
    probe.style.color = `var(${name})`;
    document.body.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  }, property);
}

const style = (locator: Locator, property: 'backgroundColor' | 'color' | 'animationName') =>
  locator.evaluate((el, p) => getComputedStyle(el)[p], property);

/** Opens the Convert dialog and converts 1 care CAP: the dialog closes and a toast says so; returns the toast. */
async function conversionToast(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Convert CAPs to REME' }).click();
  const dialog = page.getByRole('dialog', { name: 'Convert care CAPs to REME' });
  await dialog.getByRole('spinbutton', { name: 'CAPs to convert' }).fill('1');
  await dialog.getByRole('button', { name: 'Convert 1 CAP', exact: true }).click();
  const toast = page
    .getByRole('region', { name: /Notifications/ })
    .getByRole('listitem')
    .filter({ hasText: 'Converted 1 CAP' })
    .last();
  await expect(toast).toBeVisible();
  return toast;
}

test('themed controls: skeletons, toasts, disabled buttons, coming-soon badges, the Processing spinner', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const email = newEmail('controls');
  await joinThroughApi(page, { email, password: PASSWORD });
  await expect(page.getByRole('heading', { name: 'Hello, Ada Lovelace' })).toBeVisible();

  // While the member's details are on their way: the page's shape, the word only for screen readers.
  let releaseDetails!: () => void;
  const detailsHeld = new Promise<void>((resolve) => (releaseDetails = resolve));
  await page.route('**/api/me', async (route) => {
    await detailsHeld;
    // A request of the page the reload replaced is gone by then: nothing to pass on.
    await route.continue().catch(() => undefined);
  });
  await page.reload({ waitUntil: 'commit' });
  await expect(page.getByRole('main')).toHaveAttribute('aria-busy', 'true');
  await expect
    .soft(page.locator('main [data-skeleton]').first(), 'placeholder shapes while loading')
    .toBeVisible();
  const loadingWord = await page.getByText('Loading…', { exact: true }).boundingBox();
  expect.soft(loadingWord?.width ?? 0, '"Loading…" is not shown as text').toBeLessThanOrEqual(1);
  await page.screenshot({ path: test.info().outputPath('loading.png') });
  releaseDetails();
  await page.unroute('**/api/me');
  await expect(page.getByRole('heading', { name: 'Hello, Ada Lovelace' })).toBeVisible();

  // The Rewards Hub: a coming-soon item like its neighbours, nothing struck through.
  await expect.soft(page.getByRole('button', { name: 'Rewards Hub' })).toHaveCount(0);
  const hub = page
    .getByRole('region', { name: 'Explore More' })
    .getByRole('listitem')
    .filter({ hasText: /^Rewards Hub/ });
  await expect.soft(hub, 'Rewards Hub marked coming soon').toHaveText('Rewards Hub Coming Soon');
  const struck = await page.evaluate(() =>
    Array.from(document.querySelectorAll('main *'))
      .filter((el) => getComputedStyle(el).textDecorationLine.includes('line-through'))
      .map((el) => el.textContent),
  );
  expect.soft(struck, 'struck-through text').toEqual([]);

  // Care CAPs to convert, for a real toast in each theme.
  await creditCare(ops, email, 5);
  await expect(page.getByTestId('caps-balance')).toHaveText('205');
  // Each theme as the account page's Appearance applies it (rcb-background, on the document).
  const wear = (theme: string) =>
    page.evaluate((t) => {
      localStorage.setItem('rcb-background', t);
      document.documentElement.dataset.theme = t;
    }, theme);
  for (const theme of ['aurora', 'crimson', 'light'] as const) {
    await wear(theme);
    // A disabled button (Convert with no amount typed) does not look like the enabled brand button.
    await page.getByRole('button', { name: 'Convert CAPs to REME' }).click();
    const convertDialog = page.getByRole('dialog', { name: 'Convert care CAPs to REME' });
    await convertDialog.getByRole('spinbutton', { name: 'CAPs to convert' }).fill('');
    const claim = convertDialog.getByRole('button', { name: 'Convert', exact: true });
    await expect(claim).toBeDisabled();
    expect
      .soft(
        await style(claim, 'backgroundColor'),
        `${theme}: disabled button filled with the brand colour`,
      )
      .not.toBe(await themeColour(page, '--color-primary'));
    expect
      .soft(await style(claim, 'color'), `${theme}: disabled button's text muted`)
      .toBe(await themeColour(page, '--color-text-muted'));
    await page.keyboard.press('Escape');
    await expect(convertDialog).toHaveCount(0);

    // Toasts wear the theme's raised surface and text, not black.
    const toast = await conversionToast(page);
    expect
      .soft(await style(toast, 'backgroundColor'), `${theme}: toast background`)
      .toBe(await themeColour(page, '--color-surface-raised'));
    expect
      .soft(await style(toast, 'color'), `${theme}: toast text`)
      .toBe(await themeColour(page, '--color-text'));
    await page.screenshot({ path: test.info().outputPath(`toast-${theme}.png`) });
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  }
  await wear('aurora');

  // A claim on its way: the Processing card turns a spinner until the chain confirms it. The
  // receipt is held back (the real one, passed on afterwards) so the card can be seen processing.
  const address = (await page.evaluate(
    async () => (await (await fetch('/api/me')).json()).wallet.address,
  )) as string;
  expect(await ops('distribute', '--publish')).toMatch(
    /(Published|Finished the interrupted) round \d+/,
  );
  expect(await ops('fund', address, '0.05')).toContain('Sent 0.05 ETH');
  // The joining bonus and the three care CAPs (one per theme) converted above (1 / 6.028 REME each, rounded down).
  await expect(page.getByTestId('tokens-to-claim')).toHaveText('200.49');
  let releaseReceipt!: () => void;
  const receiptHeld = new Promise<void>((resolve) => (releaseReceipt = resolve));
  await page.route('**/rpc', async (route) => {
    if (
      (route.request().postDataJSON() as { method?: string } | null)?.method ===
      'eth_getTransactionReceipt'
    )
      await receiptHeld;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Claim 200.49 REME' }).click();
  await expect(page.locator('dt:text-is("Your ETH balance") + dd')).toHaveText(
    '0.05 ETH (≈ £100.00)',
  );
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Complete' }).click();
  const processing = page.getByRole('heading', { name: 'Processing' });
  // Unlocking the wallet is slow work (scrypt), slower still on a busy machine.
  await expect(processing).toBeVisible({ timeout: 90_000 });
  const spinner = processing.locator('[data-spinner]');
  await expect.soft(spinner, 'a spinner while processing').toBeVisible();
  if (await spinner.count())
    expect.soft(await style(spinner, 'animationName'), 'the spinner turns').not.toBe('none');
  await page.setViewportSize({ width: 375, height: 812 });
  await page.screenshot({ path: test.info().outputPath('processing-375.png') });
  await page.setViewportSize({ width: 1280, height: 720 });
  releaseReceipt();
  await expect(page.getByRole('heading', { name: 'Claim confirmed' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.locator('[data-spinner]')).toHaveCount(0);
  await page.unroute('**/rpc');
});
