// A member on a 375 px phone. The dashboard's figures sit on one line each and
// line up; the referral link and addresses are never broken inside (shortened in the middle, whole
// for copying); the network graph is drawn at a readable size. Screenshots of each screen at 375
// and 1280 px in both themes, each checked by axe.
import { figuresOutOfLine, tokensBrokenAcrossLines } from '../fixtures/layout';
import { joinThroughApi, newEmail, referralCodeOf, referralLinkOf } from '../fixtures/member';
import { capture } from '../fixtures/screens';
import { expect, test } from '../fixtures/test';

const PASSWORD = 'Caring-Friends-9';

test('on a phone: figures on one line and level, links and addresses whole on one line, a readable network graph', async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  const email = newEmail('phone');
  await joinThroughApi(page, { email, password: PASSWORD });
  await expect(page.getByRole('heading', { name: 'Hello, Ada Lovelace' })).toBeVisible();
  const link = await referralLinkOf(page);
  // A friend joins, so the graph has someone besides the member.
  const friendContext = await browser.newContext({
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  await joinThroughApi(await friendContext.newPage(), {
    email: newEmail('phone-friend'),
    password: PASSWORD,
    referralCode: referralCodeOf(link),
  });
  await friendContext.close();

  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Hello, Ada Lovelace' })).toBeVisible();
  await expect(page.locator('dt:text-is("Referrals") + dd')).toHaveText('100');
  // Each check is soft: a run shows every problem on the screen, not just the first.
  expect
    .soft(
      await figuresOutOfLine(
        page.getByRole('region', { name: 'How you earned your CAPs' }).locator('dl > div'),
      ),
      'How you earned your CAPs',
    )
    .toEqual([]);
  expect
    .soft(
      await figuresOutOfLine(page.getByRole('region', { name: 'Claim REME' }).locator('dl > div')),
      'Claim REME',
    )
    .toEqual([]);
  expect
    .soft(await tokensBrokenAcrossLines(page), 'links and addresses broken on the dashboard')
    .toEqual([]);
  await capture(page, 'phone-dashboard');

  await page.goto('/rcb');
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(
    page.getByRole('heading', { name: 'Hi Ada Lovelace, grow your community' }),
  ).toBeVisible();
  expect
    .soft(await tokensBrokenAcrossLines(page), 'links and addresses broken on /rcb')
    .toEqual([]);
  // Shortened where it does not fit, the whole link is what the page holds and what Share copies
  // (this browser has no share sheet).
  const invite = page.getByRole('region', { name: 'Your referral link' });
  await expect(invite.getByLabel('Your referral link')).toHaveText(link);
  await invite.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(invite.getByRole('button', { name: 'Link copied', exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  // The friend by the name they gave (its first word), not their wallet.
  await expect(
    page.getByRole('list', { name: 'Friends who joined with your link' }).getByRole('listitem'),
  ).toHaveText([/^AAdaJoined /]);
  expect
    .soft(
      await figuresOutOfLine(
        page.getByRole('list', { name: 'Network by level' }).getByRole('listitem'),
      ),
      'Network by level',
    )
    .toEqual([]);

  // The graph keeps its own size: nodes a finger's width, their labels as large as small print.
  const graph = page.getByRole('img', {
    name: 'Your network: 1 at level 1, 0 at level 2, 0 at level 3.',
  });
  await expect(graph).toBeVisible();
  const drawn = await graph.evaluate((svg) => ({
    nodes: Array.from(svg.querySelectorAll('circle')).map((c) => c.getBoundingClientRect().width),
    labels: Array.from(svg.querySelectorAll('text')).map((t) => ({
      text: t.textContent,
      height: t.getBoundingClientRect().height,
    })),
  }));
  expect(drawn.nodes).toHaveLength(2);
  for (const width of drawn.nodes)
    expect.soft(width, 'node diameter in px').toBeGreaterThanOrEqual(24);
  expect(drawn.labels.map((l) => l.text)).toEqual(['You', 'A']);
  for (const label of drawn.labels)
    expect.soft(label.height, `"${label.text}" height in px`).toBeGreaterThanOrEqual(10);
  await expect
    .soft(page.getByText('Level 1 · 100 CAPs each'), 'the levels explained')
    .toBeVisible();
  await capture(page, 'phone-rcb');

  await page.goto('/community-builder');
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(page.getByRole('heading', { name: 'Ada Lovelace', exact: true })).toBeVisible();
  expect
    .soft(await tokensBrokenAcrossLines(page), 'links and addresses broken on /community-builder')
    .toEqual([]);
  await capture(page, 'phone-community-builder');
});

test('on a touch screen a tap opens the (i) beside Registration, and a tap elsewhere closes it', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const phone = await browser.newContext({
    baseURL: baseURL!,
    hasTouch: true,
    isMobile: true,
    viewport: { width: 375, height: 812 },
  });
  const page = await phone.newPage();
  await joinThroughApi(page, { email: newEmail('tap'), password: PASSWORD });
  await page.getByRole('button', { name: 'About registration CAPs' }).tap();
  const hint = page.getByRole('tooltip');
  await expect(hint).toHaveText('200 CAPs on registering as a member');
  await page.getByRole('heading', { name: 'How you earned your CAPs' }).tap();
  await expect(hint).toHaveCount(0);
  await phone.close();
});
