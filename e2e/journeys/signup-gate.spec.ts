// The sign-up gate in Chromium (docs/security.md#the-sign-up-gate): the registration form fetches
// and solves its challenge as it opens, in a worker, and sends the solution with the form; nothing
// of it shows, on a 375 px phone or at 1280 px; a keyboard-only member signs up with Tab and Enter
// alone; pressed before the solve is done, the button is busy and nothing else shows; a challenge
// that cannot be had is said in plain words.
import type { GatePass } from '@crw/core';
import type { Page, Request } from '@playwright/test';
import { newEmail, registerThroughApi, waitForMail } from '../fixtures/member';
import { capture } from '../fixtures/screens';
import { expect, test } from '../fixtures/test';

const PASSWORD = 'Quiet-Harbour-31';
const CHALLENGE = '**/api/signup-gate/challenge?form=*';

/** Nothing on screen speaks of a check, a puzzle or a robot, and no third party's frame is there. */
async function expectNothingOfTheGate(page: Page) {
  await expect(page.getByText(/security check|captcha|robot|puzzle|verify you/i)).toHaveCount(0);
  expect(page.frames()).toHaveLength(1);
}

const gateOf = (request: Request) => (request.postDataJSON() as { gate: GatePass }).gate;

test.describe('the sign-up gate', () => {
  test('at 375 px: solved while the form is filled in, invisible, sent with the registration', async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: 375, height: 812 });
    const challenge = page.waitForResponse((r) =>
      r.url().includes('/api/signup-gate/challenge?form=register'),
    );
    await page.goto('/register');
    expect((await challenge).status()).toBe(200);
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Email').fill(newEmail('gate-phone'));
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await expectNothingOfTheGate(page);
    await capture(page, 'signup-gate-register');
    await page.setViewportSize({ width: 375, height: 812 });

    const registered = page.waitForResponse((r) => r.url().endsWith('/api/register'), {
      timeout: 180_000,
    });
    await page.getByRole('button', { name: 'Create account' }).click();
    const answer = await registered;
    expect(answer.status()).toBe(201);
    const gate = gateOf(answer.request());
    expect(gate.challenge.parameters.data).toEqual({ form: 'register', difficulty: 'base' });
    expect(gate.solution.derivedKey.startsWith(gate.challenge.parameters.keyPrefix)).toBe(true);
    await expect(page.getByRole('heading', { name: 'Your recovery code' })).toBeVisible({
      timeout: 60_000,
    });
  });

  test('with the keyboard only (Tab and Enter): the account is made', async ({ page }) => {
    test.setTimeout(240_000);
    await page.goto('/signup');
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    const email = newEmail('gate-keys');
    // From the top of the page, Tab to each field and type; nothing is clicked.
    const typeInto = async (label: string, text: string) => {
      for (let i = 0; i < 30; i++) {
        await page.keyboard.press('Tab');
        const focused = await page.evaluate(() => {
          const el = document.activeElement;
          return el instanceof HTMLInputElement ? (el.labels?.[0]?.textContent ?? '') : '';
        });
        if (focused.startsWith(label)) return page.keyboard.type(text);
      }
      throw new Error(`Tab never reached ${label}`);
    };
    await typeInto('First name', 'Keys');
    await typeInto('Email', email);
    await typeInto('Password', PASSWORD);
    await typeInto('Confirm password', PASSWORD);
    await expectNothingOfTheGate(page);
    const registered = page.waitForResponse((r) => r.url().endsWith('/api/register'), {
      timeout: 180_000,
    });
    await page.keyboard.press('Enter');
    expect((await registered).status()).toBe(201);
    await expect(page.getByRole('heading', { name: 'Your recovery code' })).toBeVisible({
      timeout: 60_000,
    });
  });

  test('pressed before the solve is done: the button is busy, nothing else shows; then the mail goes', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const { keys } = await registerThroughApi(page, { password: PASSWORD });
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(CHALLENGE, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto('/');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByLabel('Email').fill(keys.email);
    const send = page.getByRole('button', { name: 'Send reset link' });
    const sent = page.waitForRequest((r) => r.url().endsWith('/auth/request-password-reset'));
    await send.click();
    await expect(send).toHaveAttribute('aria-busy', 'true');
    await expect(send).toBeDisabled();
    await expectNothingOfTheGate(page);
    await capture(page, 'signup-gate-busy');
    await expect(send).toHaveAttribute('aria-busy', 'true');

    release();
    expect(gateOf(await sent).challenge.parameters.data.form).toBe('reset');
    await expect(page.getByText('Password reset email sent')).toBeVisible();
    await waitForMail(page.request, keys.email, 'Reset your password');
  });

  test('a challenge that cannot be had: a plain message says what to do', async ({ page }) => {
    await page.route(CHALLENGE, (route) =>
      route.fulfill({
        status: 429,
        contentType: 'application/json',
        body: JSON.stringify({
          code: 'rate_limited',
          message: 'Too many attempts. Please try again in 10 minutes.',
        }),
      }),
    );
    await page.goto('/');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByLabel('Email').fill(newEmail('gate-limited'));
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Too many attempts. Please try again in 10 minutes.',
    );
  });
});
