import { expect, test } from '../fixtures/test';

test.describe('routing rules that need no account', () => {
  for (const prefix of ['r', 'signup']) {
    // ABC123 names no member, so the sign-up card says so as it opens (it said "applied").
    test(`/${prefix}/{code} redirects to /?ref={code}, where the code is checked`, async ({
      page,
    }) => {
      await page.goto(`/${prefix}/abc123`);
      await expect(page).toHaveURL(/\/\?ref=abc123$/);
      await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
      await expect(page.getByRole('alert')).toHaveText(
        'Referral code ABC123 does not belong to any member. Check the link with the friend who sent it, or join without a code.',
      );
      await expect(page.getByText(/applied!/)).toHaveCount(0);
    });
  }

  test('/refferal sets the local refferal flag on first arrival and redirects to /', async ({
    page,
  }) => {
    await page.goto('/refferal');
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
    expect(await page.evaluate(() => localStorage.getItem('refferal'))).toBe('true');
    await page.evaluate(() => localStorage.setItem('refferal', 'false'));
    await page.goto('/refferal');
    expect(await page.evaluate(() => localStorage.getItem('refferal'))).toBe('false');
  });

  // A signed-in member goes on to /dashboard (join.spec.ts); without a session to open, the sign-in
  // card says the address is confirmed (it was a blank sign-in card).
  test('/?confirmed=true without a session: the sign-in card, saying the address is confirmed', async ({
    page,
  }) => {
    await page.goto('/?confirmed=true');
    await expect(page.getByRole('heading', { name: 'Welcome', exact: true })).toBeVisible();
    await expect(page.getByRole('status')).toHaveText(
      'Your e-mail address is confirmed. Sign in to open your wallet.',
    );
    await expect(page).toHaveURL(/\/\?confirmed=true$/);
  });

  test('an unknown path shows the not-found page', async ({ page }) => {
    const response = await page.goto('/this/page/does/not/exist');
    expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('not-found.png'), fullPage: true });
    await page.getByRole('link', { name: 'Go to the start page' }).click();
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  });

  test('every route renders without errors (member pages send a visitor to /)', async ({
    page,
  }) => {
    for (const [path, heading] of [
      ['/', 'Welcome back'],
      ['/signup', 'Create your account'],
      ['/register', 'Set up your wallet'],
      ['/reset-password', 'Ask for a new reset link'],
      ['/dashboard', 'Welcome back'],
      ['/rcb', 'Welcome back'],
      ['/convert-caps', 'Welcome back'],
      ['/claim', 'Welcome back'],
      // Public: no account needed.
      ['/rounds', 'Every distribution round'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: heading })).toBeVisible();
    }
  });
});

test('the dev mailbox shows a mail sent through the outbox', async ({ page, request }) => {
  const queued = await request.post('/dev/mail', {
    data: {
      to: 'visitor@example.test',
      subject: 'Hello from the outbox',
      text: 'Open http://127.0.0.1/welcome',
    },
  });
  expect(queued.status()).toBe(202);
  await expect(async () => {
    await page.goto('/dev/mail');
    await expect(page.getByRole('heading', { name: 'Hello from the outbox' })).toBeVisible({
      timeout: 1000,
    });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByRole('link', { name: 'http://127.0.0.1/welcome' })).toBeVisible();
});
