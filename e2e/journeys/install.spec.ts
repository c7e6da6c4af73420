// Installable on a phone: the web app manifest with its icons, the theme colour, and
// the service worker that keeps the app shell (index.html, JS, CSS) and never an API answer — the
// member's keystore comes with /api/me. Against the server that needs no e-mail confirmation, so a
// member is signed in straight after registering.
import type { APIRequestContext } from '@playwright/test';
import { joinThroughApi, newEmail } from '../fixtures/member';
import { noConfirmURL } from '../fixtures/servers';
import { expect, test } from '../fixtures/test';

test.use({ baseURL: noConfirmURL });

interface Manifest {
  name: string;
  short_name: string;
  start_url: string;
  scope: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: Array<{ src: string; sizes: string; type: string; purpose?: string }>;
}

/** A PNG's width × height from its header, after checking it is served as one. */
async function pngSize(request: APIRequestContext, url: string): Promise<string> {
  const response = await request.get(url);
  expect(response.status(), url).toBe(200);
  expect(response.headers()['content-type'], url).toBe('image/png');
  const png = await response.body();
  expect(png.subarray(1, 4).toString('latin1'), url).toBe('PNG');
  return `${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`;
}

test('installable: a valid manifest with its icons, the theme colour, a service worker that keeps the shell and no API answer', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(180_000);
  const served = await request.get('/manifest.webmanifest');
  expect(served.status()).toBe(200);
  expect(served.headers()['content-type']).toContain('application/manifest+json');
  const manifest = (await served.json()) as Manifest;
  expect(manifest).toMatchObject({
    name: 'Community Rewards Wallet',
    short_name: 'REME Wallet',
    start_url: '/dashboard',
    scope: '/',
    display: 'standalone',
  });
  // The default (aurora) theme's background, as theme.css has it.
  expect(manifest.theme_color).toBe('#0f1230');
  expect(manifest.background_color).toBe('#0f1230');
  const icon = (sizes: string, purpose: string) =>
    manifest.icons.find(
      (i) => i.sizes === sizes && (i.purpose ?? 'any').split(' ').includes(purpose),
    );
  for (const [sizes, purpose] of [
    ['192x192', 'any'],
    ['512x512', 'any'],
    ['512x512', 'maskable'],
  ] as const) {
    const found = icon(sizes, purpose);
    expect(found, `a ${purpose} icon of ${sizes}`).toBeTruthy();
    expect(found!.type).toBe('image/png');
    expect(await pngSize(request, found!.src), found!.src).toBe(sizes);
  }

  // The page links them, with the theme colour and the Apple icon.
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  expect(await page.locator('link[rel="manifest"]').getAttribute('href')).toBe(
    '/manifest.webmanifest',
  );
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#0f1230');
  expect(
    await pngSize(
      request,
      (await page.locator('link[rel="apple-touch-icon"]').getAttribute('href'))!,
    ),
  ).toBe('180x180');

  // The service worker registers and takes the page.
  const scriptURL = await page.evaluate(
    async () => (await navigator.serviceWorker.ready).active?.scriptURL,
  );
  expect(scriptURL).toBe(`${noConfirmURL}/sw.js`);

  // A member signs in; their details (with the keystore) come from the API through the controlled page.
  await joinThroughApi(page, { email: newEmail('install'), password: 'Caring-Friends-9' });
  // The body is read as the answer arrives: an /api/me answer the reload navigated away from (a
  // refresh just before it) has none left to read, and the next one is awaited instead.
  let body: { wallet?: { keystore?: string } } | undefined;
  const details = page.waitForResponse(async (r) => {
    if (new URL(r.url()).pathname !== '/api/me') return false;
    body = (await r.json().catch(() => undefined)) as typeof body;
    return body !== undefined;
  });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Hello, Ada Lovelace' })).toBeVisible();
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(
    `${noConfirmURL}/sw.js`,
  );
  const answered = await details;
  expect(body?.wallet?.keystore).toBeTruthy();
  expect(answered.fromServiceWorker(), 'the API is never answered by the service worker').toBe(
    false,
  );

  // What the service worker keeps: the shell, never the API, sign-in, the chain relay or the mailbox.
  const kept = await page.evaluate(async () => {
    const paths: string[] = [];
    for (const name of await caches.keys())
      for (const kept of await (await caches.open(name)).keys())
        paths.push(new URL(kept.url).pathname);
    return paths;
  });
  expect(kept).toContain('/index.html');
  expect(
    kept.some((p) => /^\/assets\/index-[\w-]+\.js$/.test(p)),
    'the entry script is kept',
  ).toBe(true);
  expect(
    kept.filter((p) => !/^\/(index\.html|assets\/[^/]+\.(js|css))$/.test(p)),
    'anything kept beyond the shell',
  ).toEqual([]);

  // The browser bar follows the member's theme (chosen on the account page).
  await page.goto('/account');
  await page.getByRole('button', { name: 'Crimson', exact: true }).click();
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#24070d');
  await page.getByRole('button', { name: 'Light', exact: true }).click();
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#f4f5fb');
  await page.getByRole('button', { name: 'Aurora', exact: true }).click();
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#0f1230');

  // Offline, the app still opens from the kept shell. (A second tab of the same browser: the first
  // is closed so its refreshes do not fail while the network is down.)
  await page.goto('/dashboard'); // the figures are read, and kept for a reload without a connection
  await expect(page.getByRole('heading', { name: 'Hello, Ada Lovelace' })).toBeVisible();
  await page.goto('about:blank');
  const offline = await context.newPage();
  await context.setOffline(true);
  try {
    await offline.goto('/no/such/page');
    await expect(offline.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    // A reload of the dashboard without a connection: the last figures, said to be from then, not
    // the sign-in form.
    await offline.goto('/dashboard');
    await expect(offline.getByRole('heading', { name: 'Hello, Ada Lovelace' })).toBeVisible();
    await expect(offline.getByTestId('offline-notice')).toContainText(
      'You’re offline — figures from',
    );
    await expect(offline.getByTestId('reme-balance')).toBeVisible();
    await expect(offline.getByRole('heading', { name: 'Welcome back' })).toHaveCount(0);
    await context.setOffline(false);
    // Back online: read again (on focus, or the 10 s refresh), and the notice goes.
    await offline.evaluate(() => window.dispatchEvent(new Event('focus')));
    await expect(offline.getByTestId('offline-notice')).toHaveCount(0, { timeout: 15_000 });
    await context.setOffline(true);
    expect(
      await offline.evaluate(() =>
        fetch('/api/health').then(
          () => 'reached',
          () => 'unreachable',
        ),
      ),
    ).toBe('unreachable');
  } finally {
    await context.setOffline(false);
    await offline.close();
  }
});
