// The main screens compared with their reference screenshots (journeys/visual.spec.ts-
// snapshots/), so a layout drift — a card wider than a phone, a header that stretches, a balance
// that wraps — fails here before a member sees it. What differs by member (the wallet address,
// the referral link) is masked. A deliberate design change updates the references:
//   npm run test:e2e -w e2e -- journeys/visual.spec.ts --update-snapshots
// and the new pictures are looked at in the commit.
import type { Page } from '@playwright/test';
import { joinThroughApi, newEmail } from '../fixtures/member';
import { expect, test } from '../fixtures/test';

const PASSWORD = 'Caring-Friends-9';
const SIZES = [
  { width: 375, height: 812 },
  { width: 1280, height: 900 },
] as const;

/** The screen as it is now at each size, against its reference: at most 1 % of its pixels differ. */
async function matches(page: Page, name: string) {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await expect(page).toHaveScreenshot(`${name}-${size.width}.png`, {
      fullPage: true,
      animations: 'disabled',
      // Addresses and links (each names itself whole in its title) differ for every member.
      mask: [page.locator('[title^="0x"], [title^="http"]')],
      maxDiffPixelRatio: 0.01,
    });
  }
}

test('the main screens keep their layout: sign-in, registration, dashboard, community builder, not found', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  await matches(page, 'sign-in');

  await page.goto('/register');
  await expect(page.getByRole('button', { name: 'Create account' })).toBeVisible();
  await matches(page, 'register');

  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await matches(page, 'not-found');

  await page.setViewportSize(SIZES[1]);
  const email = newEmail('visual');
  await joinThroughApi(page, { email, password: PASSWORD });
  await expect(page.getByRole('heading', { name: 'Hello, Ada Lovelace' })).toBeVisible();
  await expect(page.getByTestId('caps-balance')).toHaveText('200');
  await matches(page, 'dashboard');

  await page.getByRole('link', { name: 'Invite friends', exact: true }).click();
  await expect(page.getByRole('heading', { name: /grow your community/ })).toBeVisible();
  await matches(page, 'community-builder');
});
