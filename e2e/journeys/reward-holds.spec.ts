// Rewards held until they are trusted, as members and an operator meet them, on a server that
// holds them (REWARD_HOLD_HOURS=72; the other journeys' servers count credits at once). A member's
// new rewards show "on hold until"; a friend who signed up from the member's own network waits for
// the community's check; the operator releases it in the console and the member's CAPs count it.
// Then a farm of 12 accounts chained through each other's links from one network (behind the
// proxy the server trusts) is voided as a cluster: the member's upstream credits from it turn into
// "not credited", and nothing of it reaches the next round's dry run.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  request as playwrightRequest,
  type APIRequestContext,
  type Browser,
  type Page,
} from '@playwright/test';
import {
  cloneMemberKeys,
  makeMemberKeys,
  registerBody,
  type MemberKeys,
} from '@crw/server/testing/members';
import { freePort } from '../../server/test/helpers/ports';
import {
  spawnServer,
  waitForHealthy,
  type ServerProcess,
} from '../../server/test/helpers/server-process';
import { joinThroughApi, newEmail, waitForMail } from '../fixtures/member';
import { capture } from '../fixtures/screens';
import { expect, test } from '../fixtures/test';
import { turnOnTwoFactor } from '../fixtures/two-factor';

const OPERATOR_KEY = 'reward-holds-journey-operator-key-0123456789';
const PASSWORD = 'Kind-Neighbours-7';
let server: ServerProcess;
let api: APIRequestContext;
/** The farm's accounts share one real keystore, relabelled (the server checks its shape only). */
let farmKeys: MemberKeys;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const port = await freePort();
  server = spawnServer({
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'crw-e2e-holds-')),
    LOG_LEVEL: 'warn',
    REWARD_HOLD_HOURS: '72',
    OPERATOR_API_KEY: OPERATOR_KEY,
    AUTH_RATE_LIMIT_PER_IP: '500',
    // The farm's requests name their client in X-Forwarded-For, as a proxy in front would.
    TRUST_PROXY: 'loopback',
    SPONSOR_CLAIMS: 'false',
  });
  await waitForHealthy(server);
  api = await playwrightRequest.newContext({ baseURL: server.url });
  farmKeys = await makeMemberKeys({ password: PASSWORD });
});

test.afterAll(async () => {
  await api?.dispose();
  await server?.stop();
});

test.use({ baseURL: undefined });

async function memberPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url });
  return context.newPage();
}

/** Registers through the API from `client` (X-Forwarded-For) and confirms by the mailed link. */
async function joinFrom(client: string, name: string, referralCode?: string) {
  const keys = await cloneMemberKeys(farmKeys, newEmail('farm'));
  const registered = await api.post('/api/register', {
    headers: { origin: server.url, 'x-forwarded-for': client },
    data: await registerBody(server.url, keys, {
      firstName: 'Farm',
      lastName: name,
      ...(referralCode ? { referralCode } : {}),
    }),
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const mail = await waitForMail(api, keys.email, 'Confirm your e-mail address');
  const link = mail.links.find((l) => l.includes('/auth/verify-email'))!;
  expect((await api.get(link, { maxRedirects: 0 })).status()).toBe(302);
  return keys;
}

async function codeOf(page: Page): Promise<string> {
  return page.evaluate(async () => (await (await fetch('/api/me')).json()).referralCode as string);
}

test('a referral held for the community’s check, released by the operator, then a 12-account farm voided as a cluster', async ({
  browser,
}) => {
  test.setTimeout(600_000);
  // Ann joins: her bonus is on hold for three days.
  const ann = await memberPage(browser);
  await joinThroughApi(ann, { email: newEmail('ann'), password: PASSWORD });
  const held = ann.getByRole('region', { name: /CAPs on hold/ });
  await expect(held).toContainText('+200 CAPs for joining — on hold until');
  await expect(held).toContainText('New rewards wait a few days');

  // Ben joins through Ann's link from her network: his joining waits for the community's check.
  const ben = await memberPage(browser);
  await joinThroughApi(ben, {
    email: newEmail('ben'),
    password: PASSWORD,
    referralCode: await codeOf(ann),
  });
  await ann.reload();
  await expect(held).toContainText(
    '+100 CAPs for a friend who joined — on hold while a community organiser checks it.',
  );
  await expect(held).toHaveAccessibleName('300 CAPs on hold');
  await capture(ann, 'held-rewards-dashboard');

  // The operator: granted by the key, two-factor on, signed in again through the code.
  const steward = await memberPage(browser);
  const email = newEmail('steward');
  await joinThroughApi(steward, { email, password: PASSWORD });
  expect(
    (
      await api.post('/api/operator/operators', {
        headers: { authorization: `Bearer ${OPERATOR_KEY}` },
        data: { email, operator: true },
      })
    ).status(),
  ).toBe(200);
  await steward.goto('/account');
  await turnOnTwoFactor(steward, PASSWORD);

  // Review: Ben's joining, with the signal in words; released with a note.
  await steward.goto('/operator/review');
  const home = steward.getByRole('table', { name: 'Joinings: 127.0.0.0/24' });
  const benRow = home.getByRole('row').filter({ hasText: 'ben.' });
  await expect(benRow).toContainText(
    'Signed up from the same network as the member who referred them',
  );
  await expect(benRow).toContainText('Waits for you');
  await benRow.getByRole('button', { name: /^Release the rewards of/ }).click();
  await expect(steward.getByRole('alert')).toContainText('Write why first');
  await steward.getByLabel('Note for the audit log').fill('Ben is Ann’s flatmate');
  await benRow.getByRole('button', { name: /^Release the rewards of/ }).click();
  await expect(steward.getByText(/Released 2 credits of ben\./)).toBeVisible();

  // Ann's referral now counts; her own bonus is still on hold.
  await ann.reload();
  await expect(ann.getByRole('region', { name: 'How you earned your CAPs' })).toContainText('100');
  await expect(held).toHaveAccessibleName('200 CAPs on hold');
  await expect(held).not.toContainText('friend who joined');

  // A farm: 12 accounts from one network, each through the previous one's link, the first
  // through Ann's.
  let code = await codeOf(ann);
  for (let i = 0; i < 12; i++) {
    await joinFrom(`10.9.8.${20 + i}`, `Hand ${i + 1}`, code);
    code = (await (await api.get('/api/me')).json()).referralCode;
  }
  await ann.reload();
  await expect(held).toContainText('+25 CAPs from your network (level 3)');

  await steward.reload();
  const cluster = steward.getByRole('region', { name: '10.9.8.0/24' });
  await expect(cluster).toContainText('12 joinings');
  await capture(steward, 'review-queue-farm');
  await steward.getByLabel('Note for the audit log').fill('one farm: 12 accounts, one network');
  await cluster.getByRole('button', { name: 'Void all from this network' }).click();
  await expect(
    steward.getByText(/Voided \d+ credits of every joining from 10\.9\.8\.0\/24/),
  ).toBeVisible();
  await expect(cluster).toHaveCount(0);

  // Ann's upstream credits from the farm are not credited, and say so.
  await ann.reload();
  await expect(
    ann.getByText(/not credited: the referral did not meet the community’s rules/),
  ).toHaveCount(3);

  // Nothing of the farm is in the next round's dry run.
  const dryRun = await steward.evaluate(async () =>
    (await fetch('/api/console/rounds/dry-run?filter=new')).json(),
  );
  // Ann (her referral from Ben) and Ben (his bonus), released by the operator; no one else.
  expect(dryRun.members).toBe(2);
});
