// Every message (docs/product.md, "Messages") the account screens show from the server's answer,
// exactly; each under the field it is about, which is marked invalid and described by it. The
// messages the forms give before asking the server are web/src/app/form-messages.test.tsx's.
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { joinThroughApi, newEmail, registerThroughApi, waitForMail } from '../fixtures/member';
import { capture } from '../fixtures/screens';

const existing = { email: newEmail('existing'), password: 'Existing-Pass-1' };
const unconfirmed = { email: newEmail('unconfirmed'), password: 'Existing-Pass-1' };

test.describe.serial('messages', () => {
  // An existing account is a confirmed one: registering again over an unconfirmed sign-up replaces
  // it (docs/security.md, account pre-hijacking), so only a confirmed one answers "already exists".
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000); // two wallets made with scrypt
    const page = await browser.newPage();
    await joinThroughApi(page, existing);
    await registerThroughApi(page, unconfirmed);
    await page.close();
  });

  /** The message is announced, sits under its field, and the field is aria-invalid and described by it. */
  async function expectFieldError(page: Page, label: string, text: string) {
    await expect(page.getByRole('alert')).toHaveText(text);
    const field = page.getByLabel(label, { exact: true });
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toHaveAccessibleDescription(text);
  }

  /** Whether the page asked for a wallet challenge, i.e. started building a wallet. */
  function watchWalletBuilding(page: Page) {
    let started = false;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/wallet/challenge')) started = true;
    });
    return () => started;
  }

  async function signIn(page: Page, email: string, password: string) {
    await page.goto('/');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  async function authSignUp(page: Page, email: string, password: string, confirm: string) {
    await page.goto('/signup');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password', { exact: true }).fill(confirm);
    await page.getByRole('button', { name: 'Create account' }).click();
  }

  async function register(
    page: Page,
    fields: { first?: string; last?: string; email?: string; password: string; confirm: string },
  ) {
    await page.goto('/register');
    await page.getByLabel('First name').fill(fields.first ?? 'Ada');
    await page.getByLabel('Last name').fill(fields.last ?? 'Lovelace');
    await page.getByLabel('Email').fill(fields.email ?? newEmail('reg'));
    await page.getByLabel('Password', { exact: true }).fill(fields.password);
    await page.getByLabel('Confirm password', { exact: true }).fill(fields.confirm);
    await page.getByRole('button', { name: 'Create account' }).click();
  }

  test('sign-in: invalid credentials', async ({ page }) => {
    await signIn(page, newEmail('nobody'), 'wrong-password');
    await expect(page.getByRole('alert')).toHaveText(
      'Invalid email or password. Please check your credentials.',
    );
  });

  test('sign-in takes an existing password of any length: a 6-character one is checked, not refused', async ({
    page,
  }) => {
    await signIn(page, newEmail('short'), 'abc123');
    await expect(page.getByRole('alert')).toHaveText(
      'Invalid email or password. Please check your credentials.',
    );
  });

  test('sign-in: unconfirmed e-mail, with Resend confirmation e-mail', async ({ page }) => {
    await signIn(page, unconfirmed.email, unconfirmed.password);
    await expect(page.getByRole('alert')).toHaveText(
      'Please check your email and click the confirmation link before signing in.',
    );
    await expect(page.getByRole('button', { name: 'Resend confirmation e-mail' })).toBeVisible();
  });

  test("resend: 'Email address is required to resend confirmation'", async ({ page }) => {
    await signIn(page, unconfirmed.email, unconfirmed.password);
    await expect(page.getByRole('button', { name: 'Resend confirmation e-mail' })).toBeVisible();
    await page.getByLabel('Email').fill('');
    await page.getByRole('button', { name: 'Resend confirmation e-mail' }).click();
    await expectFieldError(page, 'Email', 'Email address is required to resend confirmation');
    await capture(page, 'auth-field-error');
  });

  test('auth sign-up: existing account (auth-screen text), said before any wallet is built', async ({
    page,
  }) => {
    const walletStarted = watchWalletBuilding(page);
    await authSignUp(page, existing.email, 'another-pass', 'another-pass');
    await expectFieldError(
      page,
      'Email',
      'An account with this email already exists. Please try signing in instead.',
    );
    expect(walletStarted(), 'a wallet was being built for a taken e-mail').toBe(false);
    await expect(page.getByRole('progressbar')).toHaveCount(0);
  });

  test('registration: existing account (the same text as the auth card: one form), said before any wallet is built', async ({
    page,
  }) => {
    const walletStarted = watchWalletBuilding(page);
    await register(page, {
      email: existing.email,
      password: 'long-enough-1',
      confirm: 'long-enough-1',
    });
    await expectFieldError(
      page,
      'Email',
      'An account with this email already exists. Please try signing in instead.',
    );
    expect(walletStarted(), 'a wallet was being built for a taken e-mail').toBe(false);
  });

  test('a confirmation link that does not work says so, and Resend confirmation e-mail sends a new one', async ({
    page,
    request,
  }) => {
    const before = await waitForMail(request, unconfirmed.email, 'Confirm your e-mail address');
    await page.goto(
      `/auth/verify-email?token=not-a-real-token&callbackURL=${encodeURIComponent('/?confirmed=true')}`,
    );
    await expect(page).toHaveURL(/\/\?confirmed=true&error=INVALID_TOKEN$/);
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveText(
      'This confirmation link does not work: it may be cut short, or from an earlier sign-up. If you have confirmed already, sign in; if not, enter your e-mail address and press Resend confirmation e-mail for a new link.',
    );
    await capture(page, 'auth-confirmation-link-failed');
    await page.getByLabel('Email').fill(unconfirmed.email);
    await page.getByRole('button', { name: 'Resend confirmation e-mail' }).click();
    await expect(page.getByRole('status')).toHaveText(
      'Confirmation email resent. Please check your inbox and spam folder.',
    );
    await waitForMail(request, unconfirmed.email, 'Confirm your e-mail address', before.id);
  });

  test('a confirmation link used before says the address is confirmed, and to sign in', async ({
    page,
    request,
  }) => {
    const mail = await waitForMail(request, existing.email, 'Confirm your e-mail address');
    await page.goto(mail.links.find((l) => l.includes('/auth/verify-email'))!);
    await expect(page.getByRole('heading', { name: 'Welcome', exact: true })).toBeVisible();
    await expect(page.getByRole('status')).toHaveText(
      'Your e-mail address is confirmed. Sign in to open your wallet.',
    );
  });

  test('a reset link that does not work says so and sends a new one to the same address', async ({
    page,
    request,
  }) => {
    const callback = `/reset-password?email=${encodeURIComponent(existing.email)}`;
    await page.goto(
      `/auth/reset-password/not-a-real-token?callbackURL=${encodeURIComponent(callback)}`,
    );
    await expect(page.getByRole('heading', { name: 'Ask for a new reset link' })).toBeVisible();
    await expect(page.getByText('This reset link is invalid or has expired.')).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(existing.email);
    await capture(page, 'reset-link-failed');
    await page.getByRole('button', { name: 'Send a new link' }).click();
    await expect(page.getByRole('status')).toHaveText(
      'Password reset email sent. Check your inbox for the link.',
    );
    await waitForMail(request, existing.email, 'Reset your password');
  });

  test('reset: Password reset email sent (the same for an unknown address)', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByLabel('Email').fill(newEmail('unknown'));
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('status')).toHaveText(
      'Password reset email sent. Check your inbox for the link.',
    );
  });

  test('sign-in limit: the attempt after the limit answers 429 and the screen says so', async ({
    page,
  }) => {
    const email = newEmail('limited');
    for (let attempt = 1; attempt <= 5; attempt++) {
      await signIn(page, email, `wrong-${attempt}`);
      await expect(page.getByRole('alert')).toHaveText(
        'Invalid email or password. Please check your credentials.',
      );
    }
    const answer = page.waitForResponse((r) => r.url().endsWith('/auth/sign-in/email'));
    await signIn(page, email, 'wrong-6');
    expect((await answer).status()).toBe(429);
    await expect(page.getByRole('alert')).toHaveText(
      'Too many attempts. Please try again in 10 minutes.',
    );
  });
});
