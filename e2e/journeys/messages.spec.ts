// Every validation and error message of SPEC §5 and §8 on the account screens, exactly.
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { confirmByMail, newEmail, registerOnRegisterScreen } from '../fixtures/member';

const existing = { email: newEmail('existing'), password: 'Existing-Pass-1' };
const unconfirmed = { email: newEmail('unconfirmed'), password: 'Existing-Pass-1' };

test.describe.serial('messages', () => {
  // An existing account is a confirmed one: registering again over an unconfirmed sign-up replaces
  // it (docs/security.md, account pre-hijacking), so only a confirmed one answers "already exists".
  test.beforeAll(async ({ browser }) => {
    const page = await browser.newPage();
    await registerOnRegisterScreen(page, existing.email, existing.password);
    await confirmByMail(page, page.request, existing.email);
    await page.context().clearCookies();
    await registerOnRegisterScreen(page, unconfirmed.email, unconfirmed.password);
    await page.close();
  });

  async function signIn(page: Page, email: string, password: string) {
    await page.goto('/');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'LOGIN' }).click();
  }

  async function authSignUp(page: Page, email: string, password: string, confirm: string) {
    await page.goto('/signup');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password', { exact: true }).fill(confirm);
    await page.getByRole('button', { name: 'CREATE ACCOUNT' }).click();
  }

  async function register(page: Page, fields: { first?: string; last?: string; email?: string; password: string; confirm: string }) {
    await page.goto('/register');
    await page.getByLabel('First name').fill(fields.first ?? 'Ada');
    await page.getByLabel('Last name').fill(fields.last ?? 'Lovelace');
    await page.getByLabel('Email').fill(fields.email ?? newEmail('reg'));
    await page.getByLabel('Password', { exact: true }).fill(fields.password);
    await page.getByLabel('Confirm password', { exact: true }).fill(fields.confirm);
    await page.getByRole('button', { name: 'CREATE WALLET' }).click();
  }

  test("sign-in: 'Email address is required'", async ({ page }) => {
    await signIn(page, '', 'whatever');
    await expect(page.getByRole('alert')).toHaveText('Email address is required');
  });

  test("sign-in: 'Password is required'", async ({ page }) => {
    await signIn(page, 'someone@example.test', '');
    await expect(page.getByRole('alert')).toHaveText('Password is required');
  });

  test('sign-in: invalid credentials', async ({ page }) => {
    await signIn(page, newEmail('nobody'), 'wrong-password');
    await expect(page.getByRole('alert')).toHaveText('Invalid email or password. Please check your credentials.');
  });

  test('sign-in: unconfirmed e-mail, with Resend Email', async ({ page }) => {
    await signIn(page, unconfirmed.email, unconfirmed.password);
    await expect(page.getByRole('alert')).toHaveText('Please check your email and click the confirmation link before signing in.');
    await expect(page.getByRole('button', { name: 'Resend Email' })).toBeVisible();
  });

  test("resend: 'Email address is required to resend confirmation'", async ({ page }) => {
    await signIn(page, unconfirmed.email, unconfirmed.password);
    await expect(page.getByRole('button', { name: 'Resend Email' })).toBeVisible();
    await page.getByLabel('Email').fill('');
    await page.getByRole('button', { name: 'Resend Email' }).click();
    await expect(page.getByRole('alert')).toHaveText('Email address is required to resend confirmation');
  });

  test("auth sign-up: 'Please enter a valid email address'", async ({ page }) => {
    await authSignUp(page, 'not-an-email', 'secret1', 'secret1');
    await expect(page.getByRole('alert')).toHaveText('Please enter a valid email address');
  });

  test("auth sign-up: 'Password must be at least 6 characters long'", async ({ page }) => {
    await authSignUp(page, 'a@example.test', '12345', '12345');
    await expect(page.getByRole('alert')).toHaveText('Password must be at least 6 characters long');
  });

  test("auth sign-up: 'Passwords do not match'", async ({ page }) => {
    await authSignUp(page, 'a@example.test', 'secret1', 'secret2');
    await expect(page.getByRole('alert')).toHaveText('Passwords do not match');
  });

  test('auth sign-up: existing account (auth-screen text)', async ({ page }) => {
    await authSignUp(page, existing.email, 'another-pass', 'another-pass');
    await expect(page.getByRole('alert')).toHaveText('An account with this email already exists. Please try signing in instead.', { timeout: 30_000 });
  });

  test("registration: 'Password minimum: At least 8 characters' first", async ({ page }) => {
    await register(page, { first: '', password: '1234567', confirm: 'other' });
    await expect(page.getByRole('alert')).toHaveText('Password minimum: At least 8 characters');
  });

  test('registration: "Passwords don\'t match" second', async ({ page }) => {
    await register(page, { first: '', password: '12345678', confirm: '12345679' });
    await expect(page.getByRole('alert')).toHaveText("Passwords don't match");
  });

  test("registration: 'Please fill in all required fields' third", async ({ page }) => {
    await register(page, { last: '   ', password: '12345678', confirm: '12345678' });
    await expect(page.getByRole('alert')).toHaveText('Please fill in all required fields');
  });

  test('registration: existing account (service-level text)', async ({ page }) => {
    await register(page, { email: existing.email, password: 'long-enough-1', confirm: 'long-enough-1' });
    await expect(page.getByRole('alert')).toHaveText('An account with this email already exists. Please sign in instead.', { timeout: 30_000 });
  });

  test('reset: Password reset email sent (the same for an unknown address)', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Forgot Password?' }).click();
    await page.getByLabel('Email').fill(newEmail('unknown'));
    await page.getByRole('button', { name: 'SEND RESET EMAIL' }).click();
    await expect(page.getByRole('status')).toHaveText('Password reset email sent. Check your inbox for the link.');
  });

  test('sign-in limit: the attempt after the limit answers 429 and the screen says so', async ({ page }) => {
    const email = newEmail('limited');
    for (let attempt = 1; attempt <= 5; attempt++) {
      await signIn(page, email, `wrong-${attempt}`);
      await expect(page.getByRole('alert')).toHaveText('Invalid email or password. Please check your credentials.');
    }
    const answer = page.waitForResponse((r) => r.url().endsWith('/auth/sign-in/email'));
    await signIn(page, email, 'wrong-6');
    expect((await answer).status()).toBe(429);
    await expect(page.getByRole('alert')).toHaveText('Too many attempts. Please try again in 10 minutes.');
  });
});
