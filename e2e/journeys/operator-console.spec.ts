// The operator console as an operator uses it: granted by the CLI, closed until
// two-factor sign-in is on (the test is the authenticator app), then a member found by search,
// a care action credited on their page, and both actions in the audit log; the round published
// from the console, claimed by the member, counted under the round; the credit's notification mail
// in the mail screen's Notifications view, apart from the account mails. A member who opens
// /operator is told it is not for them and never downloads the console's code.
import type { BrowserContext, Page } from '@playwright/test';
import { joinThroughApi, newEmail } from '../fixtures/member';
import { ops } from '../fixtures/ops';
import { capture } from '../fixtures/screens';
import { expect, test } from '../fixtures/test';
import { turnOnTwoFactor } from '../fixtures/two-factor';

const PASSWORD = 'Steady-Hands-42';

/** The console's chunks (routes/console.tsx and what only it imports). */
const consoleChunk = /\/assets\/console-[^/]*\.js$/;

/** Every script the browser asks for from now on, the service worker's downloads included. */
function scriptsLoaded(context: BrowserContext): string[] {
  const urls: string[] = [];
  context.on('request', (r) => {
    if (r.url().endsWith('.js')) urls.push(new URL(r.url()).pathname);
  });
  return urls;
}

async function joinAndConfirm(page: Page, prefix: string) {
  const email = newEmail(prefix);
  await joinThroughApi(page, { email, password: PASSWORD });
  return email;
}

test('an operator turns on two-factor, finds a member, credits a care action, and sees it audited', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(600_000);
  // The member the operator will help, in a browser of their own.
  const memberContext = await browser.newContext({ baseURL });
  const memberScripts = scriptsLoaded(memberContext);
  const memberPage = await memberContext.newPage();
  const memberEmail = await joinAndConfirm(memberPage, 'helped');

  const memberAddress = (await memberPage.evaluate(
    async () => (await (await fetch('/api/me')).json()).wallet.address,
  )) as string;

  // A member opening /operator: told it is not for them, and the console's code never arrives.
  await memberPage.goto('/operator');
  await expect(memberPage.getByRole('alert')).toContainText(
    'This page is for the community’s operators.',
  );
  expect(memberScripts.length).toBeGreaterThan(0);
  expect(memberScripts.filter((s) => consoleChunk.test(s))).toEqual([]);

  // The operator joins, is granted the role by the CLI, and finds the console closed until
  // two-factor sign-in is on.
  const operatorEmail = await joinAndConfirm(page, 'operator');
  expect(await ops('grant-operator', '--email', operatorEmail)).toContain('is now an operator');
  await page.goto('/operator');
  await expect(page.getByRole('alert')).toContainText('needs two-factor sign-in');
  await capture(page, 'operator-two-factor-required');
  await page.getByRole('link', { name: 'Set up two-factor sign-in on your account page' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await turnOnTwoFactor(page, PASSWORD);

  // The session that passed the code opens the console; its code loads now.
  const operatorScripts = scriptsLoaded(page.context());
  await page.goto('/operator');
  await page.getByRole('link', { name: 'Members' }).click({ timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Members' })).toBeVisible();
  expect(operatorScripts.some((s) => consoleChunk.test(s))).toBe(true);

  // Search by the start of the member's e-mail, then open their page.
  await page.getByLabel('Search members').fill(memberEmail.slice(0, memberEmail.indexOf('@')));
  const row = page.getByRole('row').filter({ hasText: memberEmail });
  await expect(row).toHaveCount(1);
  await capture(page, 'operator-members');
  // By keyboard: from the search field, Tab reaches the member's link and Enter opens the page.
  const memberLink = row.getByRole('link');
  await page.getByLabel('Search members').focus();
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    if (await memberLink.evaluate((el) => el === document.activeElement)) break;
  }
  await expect(memberLink).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText(memberEmail).first()).toBeVisible();
  const caps = page.getByRole('region', { name: 'CAPs' });
  await expect(caps.getByText('200').last()).toBeVisible();

  // A care action: wrong input first, then 25 CAPs.
  const care = page.getByRole('region', { name: 'Credit a care action' });
  await care.getByLabel('CAPs').fill('2.5');
  await care.getByLabel('What they did').fill('Visited Mrs Jones');
  await care.getByRole('button', { name: 'Credit care action' }).click();
  await expect(care.getByRole('alert')).toContainText('whole number');
  await care.getByLabel('CAPs').fill('25');
  await care.getByRole('button', { name: 'Credit care action' }).click();
  await expect(page.getByText(/Credited 25 CAPs/)).toBeVisible();
  await expect(caps.getByText('225')).toBeVisible();
  await expect(page.getByRole('table', { name: 'CAPs ledger' })).toContainText('Visited Mrs Jones');
  await capture(page, 'operator-member');

  // The dry run of the next round lists the member; publishing it shows each step as it happens.
  await page.getByRole('link', { name: 'Rounds' }).click();
  await page.getByLabel('Wallet starts with').fill(memberAddress.slice(0, 12));
  const dryRun = page.getByRole('table', { name: 'Who gains in the next round' });
  await expect(dryRun.getByRole('row').filter({ hasText: memberAddress.slice(-8) })).toHaveCount(1);
  await expect(page.getByText(/^Worked out at \d\d:\d\d$/)).toBeVisible();
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByRole('button', { name: 'Refresh' })).toBeEnabled();
  await capture(page, 'operator-rounds');
  await page.getByRole('button', { name: /^(Publish|Finish) round \d+$/ }).click();
  // The question names the amount and whom it pays; a double press publishes once.
  const ask = page.getByRole('alertdialog', {
    name: /^(Publish|Finish) round \d+: \d{1,3}(,\d{3})*\.\d{2,18} REME in total to [\d,]+ members?\?$/,
  });
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Publish now' }).dblclick();
  await expect(page.getByRole('list', { name: 'Publishing progress' })).toBeVisible();
  await expect(page.getByText(/Round \d+ is published on the chain\./)).toBeVisible({
    timeout: 60_000,
  });
  const history = page.getByRole('table', { name: 'Rounds so far' });
  await expect(history.getByRole('row').nth(1)).toContainText('published');
  await expect(history.getByRole('link', { name: 'tree.json' }).first()).toBeVisible();

  // The member claims in their browser (with ETH for the fee); the operator sees the claim.
  await ops('fund', memberAddress, '0.05');
  await memberPage.goto('/dashboard');
  await memberPage.getByRole('button', { name: 'Claim 200.00 REME' }).click();
  await expect(memberPage.getByTestId('fee-check')).toHaveText('Your ETH covers the fee.', {
    timeout: 30_000,
  });
  await memberPage.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await memberPage.getByRole('button', { name: 'Complete' }).click();
  await expect(memberPage.getByRole('heading', { name: 'Claim confirmed' })).toBeVisible({
    timeout: 180_000,
  });
  await memberContext.close();
  await page.goto(`/operator/members`);
  await page.getByLabel('Search members').fill(memberEmail.slice(0, memberEmail.indexOf('@')));
  await page.getByRole('row').filter({ hasText: memberEmail }).getByRole('link').click();
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('table', { name: 'Claims on the chain' })).toBeVisible({
      timeout: 2_000,
    });
  }).toPass({ timeout: 60_000 });

  // The mail outbox and the overview, as every console screen: both widths, both themes, axe.
  await page.getByRole('link', { name: 'Mail' }).click();
  await expect(page.getByRole('heading', { name: /Mail/ }).first()).toBeVisible();
  await expect(
    page.getByRole('table').getByText('Confirm your e-mail address').first(),
  ).toBeVisible();
  await capture(page, 'operator-mail');
  // The notification mails apart: the care action's credit mail to the member, in words.
  await page.getByRole('link', { name: 'Notifications', exact: true }).click();
  const notes = page.getByRole('table', { name: 'Notification mails' });
  const toMember = notes.getByRole('row').filter({ hasText: memberEmail });
  await expect(toMember.filter({ hasText: 'A credit' }).first()).toBeVisible();
  await expect(
    page.getByText(/^[\d,]+ failing · [\d,]+ pending · .+ sent · .+ skipped$/),
  ).toBeVisible();
  await expect(page.getByRole('table', { name: 'Mails', exact: true })).toHaveCount(0);
  await capture(page, 'operator-mail-notifications');
  await page.getByRole('link', { name: 'Overview' }).click();
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await capture(page, 'operator-overview');

  // Under the round: who claimed it. The member claimed themselves; the figures are counted at most
  // once a minute, so the operator may see the count from before the claim for a while.
  await page.getByRole('link', { name: 'Rounds' }).click();
  const latest = page.getByRole('table', { name: 'Rounds so far' }).getByRole('row').nth(1);
  const round = (await latest.getByRole('cell').first().innerText()).match(/^\d+/)![0];
  const claims = page.getByRole('list', { name: `Round ${round}: claims` });
  await expect(claims.getByRole('listitem')).toHaveText([
    /^Claimed themselves [\d,]+$/,
    /^Claimed for them [\d,]+$/,
    /^Reminded [\d,]+$/,
    /^Not claimed yet [\d,]+$/,
  ]);
  await expect(async () => {
    await page.reload();
    await expect(claims.getByRole('listitem').first()).toHaveText(/^Claimed themselves [1-9]/, {
      timeout: 2_000,
    });
  }).toPass({ timeout: 120_000, intervals: [5_000] });
  await capture(page, 'operator-rounds-claims');

  // Every action is in the audit log: the console's with the operator's e-mail, the CLI's as the
  // API key (a faucet transfer names a whole wallet address: the log must still fit a phone).
  await page.getByRole('link', { name: 'Audit log' }).click();
  const log = page.getByRole('table');
  // The console's own credit, with the operator's e-mail (other journeys credit care through the
  // CLI on this server too: those rows say API key).
  await expect(
    log
      .getByRole('row')
      .filter({ hasText: 'care-action.credit' })
      .filter({ hasText: operatorEmail }),
  ).toHaveCount(1);
  await expect(log.getByRole('row').filter({ hasText: 'member.view' }).first()).toContainText(
    operatorEmail,
  );
  await expect(log.getByRole('row').filter({ hasText: 'operator.grant' })).toContainText('API key');
  // The console's publish, by this operator, names its round, total REME and transaction; the
  // double press above started one publish.
  const byOperator = (action: string) =>
    log
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: action, exact: true }) })
      .filter({ hasText: operatorEmail });
  await expect(byOperator('round.publish-start')).toHaveCount(1);
  const publishRow = byOperator('round.publish');
  await expect(publishRow).toHaveCount(1);
  for (const part of [
    /index: \d+/,
    /total: \d{1,3}(,\d{3})*\.\d{2,18} REME/,
    /txHash: 0x[0-9a-f]{64}/,
  ])
    await expect(publishRow).toContainText(part);
  await expect(log.getByRole('row').filter({ hasText: 'faucet.fund' }).first()).toContainText(
    'API key',
  );
  await capture(page, 'operator-audit');
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download CSV' }).click();
  expect((await download).suggestedFilename()).toBe('operator-audit.csv');

  // Revoked by the CLI: every session of the operator ends, so the next load of the console finds
  // them signed out and shows the sign-in screen (docs/security.md#the-operator-console).
  await ops('revoke-operator', '--email', operatorEmail);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
});
