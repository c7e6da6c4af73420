// The dashboard as a member uses it: by keyboard alone, copying addresses, switching themes, and
// opening the sister community app, whose stand-in redeems the hand-off code server to server and
// verifies the JWT with our published JWKS.
import { createServer, type Server } from 'node:http';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { joinThroughApi, newEmail } from '../fixtures/member';
import { creditCare, ops } from '../fixtures/ops';
import {
  communityAppPort,
  communityAppSecret,
  communityAppURL,
  mainURL,
} from '../fixtures/servers';
import { expect, test } from '../fixtures/test';

const PASSWORD = 'Caring-Friends-9';

/** The sister app: redeems ?authtoken= with our server and greets whoever the verified JWT names. */
function startCommunityApp(): Promise<Server> {
  const jwks = createRemoteJWKSet(new URL('/auth/.well-known/jwks.json', mainURL));
  const server = createServer((req, res) => {
    void (async () => {
      const code = new URL(req.url ?? '/', communityAppURL).searchParams.get('authtoken') ?? '';
      const redeemed = await fetch(`${mainURL}/api/handoff/redeem`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${communityAppSecret}`,
        },
        body: JSON.stringify({ code }),
      });
      if (!redeemed.ok) {
        res
          .writeHead(401, { 'content-type': 'text/html' })
          .end('<title>Community</title><h1>Not signed in</h1>');
        return;
      }
      const { token } = (await redeemed.json()) as { token: string };
      const { payload } = await jwtVerify(token, jwks, {
        audience: new URL(communityAppURL).origin,
        issuer: mainURL,
      });
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          `<title>Community</title><h1>Welcome ${String(payload.email)}</h1><p>${String(payload.wallet)}</p>`,
        );
    })().catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  return new Promise((resolve) =>
    server.listen(communityAppPort, '127.0.0.1', () => resolve(server)),
  );
}

test('the dashboard by keyboard: the appearance on the account page, copy, the Convert dialog, focus always visible', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const email = newEmail('keyboard');
  await joinThroughApi(page, { email, password: PASSWORD });
  await expect(page.getByRole('heading', { name: 'Hello, Ada Lovelace' })).toBeVisible();
  const address = (await page.evaluate(
    async () => (await (await fetch('/api/me')).json()).wallet.address,
  )) as string;

  /** Tabs until the named control has focus; every stop shows a focus outline. */
  async function tabTo(name: string) {
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const style = getComputedStyle(el);
        return {
          name: el.getAttribute('aria-label') ?? el.textContent?.trim() ?? '',
          outline: style.outlineStyle,
          width: style.outlineWidth,
        };
      });
      expect(focused.outline, `focus on "${focused.name}" is visible`).not.toBe('none');
      if (focused.name.startsWith(name)) return;
    }
    throw new Error(`"${name}" never got focus`);
  }

  // The appearance is chosen on the account page (no theme toggle in the dashboard's header); the
  // system here is dark, so Match system draws Aurora until the member picks another.
  await expect(page.getByRole('group', { name: 'Theme' })).toHaveCount(0);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'aurora');
  await tabTo('Account');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/account$/);
  // The account screen is loaded on demand: the URL changes first, and a Tab pressed before the
  // screen replaces the dashboard would land on a link that is about to go.
  await expect(page.getByRole('heading', { name: 'Account and security' })).toBeVisible();
  await tabTo('Crimson');
  await page.keyboard.press('Enter');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'crimson');
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Hello, Ada Lovelace' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'crimson');
  expect(await page.evaluate(() => localStorage.getItem('rcb-background'))).toBe('crimson');
  // Match system follows the system's setting as it changes.
  await page.goto('/account');
  await page.getByRole('button', { name: 'Match system' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'aurora');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'aurora');
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Hello, Ada Lovelace' })).toBeVisible();

  await tabTo('Copy Your wallet');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Your wallet copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);
  await expect(page.getByRole('button', { name: 'Copy Your wallet' })).toBeVisible({
    timeout: 3_000,
  });

  // Care CAPs to convert, so the dialog has its form.
  await creditCare(ops, email, 12);
  await expect(page.getByTestId('caps-balance')).toHaveText('212');
  await tabTo('Convert CAPs to REME');
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Convert care CAPs to REME' });
  await expect(dialog).toBeVisible();
  const amount = dialog.getByRole('spinbutton', { name: 'CAPs to convert' });
  await expect(amount).toHaveValue('12');
  await expect(dialog.getByTestId('convert-receive')).toHaveText('1.99 REME');
  // By keyboard alone: the amount, then the button that names it; focus stays inside the dialog.
  for (let i = 0; i < 6 && !(await amount.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(amount).toBeFocused();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('1');
  await expect(dialog.getByRole('button', { name: 'Convert 1 CAP', exact: true })).toBeVisible();
  await page.keyboard.type('0');
  const ten = dialog.getByRole('button', { name: 'Convert 10 CAPs' });
  for (let i = 0; i < 6 && !(await ten.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(ten).toBeFocused();
  await page.keyboard.press('Enter');
  // The dialog closes, a toast says what happened, and focus is back on the button.
  await expect(dialog).toBeHidden();
  await expect(
    page.getByText('Converted 10 CAPs → 1.65 REME, paid in the next round'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Convert CAPs to REME' })).toBeFocused();

  await tabTo('Care Finance Hub');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Convert CAPs', exact: true })).toBeVisible();
});

test('the community app link hands over a one-time code, never the session', async ({
  page,
  request,
  context,
}) => {
  test.setTimeout(120_000);
  const communityApp = await startCommunityApp();
  try {
    const email = newEmail('handoff');
    await joinThroughApi(page, { email, password: PASSWORD });
    await expect(page.getByRole('heading', { name: 'Hello, Ada Lovelace' })).toBeVisible();

    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Open the Community App' }).click();
    const app = await popup;
    await expect(app.getByRole('heading', { name: `Welcome ${email}` })).toBeVisible();
    const url = new URL(app.url());
    expect(`${url.origin}${url.pathname}`).toBe(communityAppURL);
    const code = url.searchParams.get('authtoken')!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const cookie of await context.cookies(mainURL))
      expect(app.url()).not.toContain(cookie.value.split('.')[0]);

    // Used once already: a replay, here or by anyone who saw the URL, is refused.
    await app.reload();
    await expect(app.getByRole('heading', { name: 'Not signed in' })).toBeVisible();
    const replay = await request.post(`${mainURL}/api/handoff/redeem`, {
      data: { code },
      headers: { authorization: `Bearer ${communityAppSecret}` },
    });
    expect(replay.status()).toBe(401);
    await app.close();
  } finally {
    await new Promise((resolve) => communityApp.close(resolve));
  }
});
