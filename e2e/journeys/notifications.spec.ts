// Members never miss what they earned (issue 30), on a server that mails over SMTP to a real mail
// server this journey runs: Ada turns "Claim for me each round" on from her account page; the
// operator publishes a round and her REME arrive in her wallet without her pressing anything, the
// dashboard saying "Claimed for you" and a mail telling her so. Ben left it off: the round's mail
// reaches him and its link opens the claim screen; its Unsubscribe link works in a browser that is
// not signed in, and the next round's mail is not sent to him (Cleo's is).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  request as playwrightRequest,
  type APIRequestContext,
  type Browser,
  type Page,
} from '@playwright/test';
import { freePort } from '../../server/test/helpers/ports';
import {
  spawnServer,
  waitForHealthy,
  type ServerProcess,
} from '../../server/test/helpers/server-process';
import { smtpPeer, type SmtpPeer } from '../../server/test/helpers/smtp-peer';
import { header, parse, split } from '../../server/test/helpers/raw-mail';
import { joinThroughApi, newEmail } from '../fixtures/member';
import { capture } from '../fixtures/screens';
import { expect, test } from '../fixtures/test';

const OPERATOR_KEY = 'notifications-journey-operator-key-0123456789';
const PASSWORD = 'Caring-Friends-9';
let server: ServerProcess;
let peer: SmtpPeer;
let api: APIRequestContext;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  peer = smtpPeer(await freePort());
  await peer.start();
  const port = await freePort();
  server = spawnServer({
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'crw-e2e-notifications-')),
    LOG_LEVEL: 'warn',
    OPERATOR_API_KEY: OPERATOR_KEY,
    AUTH_RATE_LIMIT_PER_IP: '500',
    SMTP_URL: `smtp://127.0.0.1:${peer.port}`,
    SPONSOR_CLAIMS: 'true',
    SPONSOR_MIN_ACCOUNT_AGE_HOURS: '0',
    SPONSOR_NETWORK_SHARE_PERCENT: '100',
    RELAYER_BATCH_WAIT_MS: '0',
    REWARD_HOLD_HOURS: '0',
    // As the other journeys: members start with it off; Ada turns it on as a member does.
    CLAIM_FOR_ME_DEFAULT: 'false',
  });
  await waitForHealthy(server);
  api = await playwrightRequest.newContext({ baseURL: server.url });
});

test.afterAll(async () => {
  await api?.dispose();
  await server?.stop();
  await peer?.stop();
});

test.use({ baseURL: undefined });

interface Mail {
  subject: string;
  text: string;
  listUnsubscribe: string;
}

function mailsTo(email: string): Mail[] {
  return peer.received
    .filter((m) => m.to.includes(email.toLowerCase()))
    .map((m) => {
      const message = split(m.raw);
      return {
        subject: header(message, 'Subject'),
        listUnsubscribe: header(message, 'List-Unsubscribe'),
        text: parse(m.raw).parts.find((p) => p.type.startsWith('text/plain'))?.body ?? '',
      };
    });
}

async function mailTo(email: string, subject: RegExp): Promise<Mail> {
  let found: Mail | undefined;
  await expect(async () => {
    found = mailsTo(email).find((m) => subject.test(m.subject));
    expect(found, `a mail to ${email} with subject ${subject}`).toBeTruthy();
  }).toPass({ timeout: 60_000 });
  return found!;
}

const linkIn = (mail: Mail, label: string) =>
  new RegExp(`^${label}: (\\S+)$`, 'm').exec(mail.text)?.[1];

async function memberPage(browser: Browser, width = 1280): Promise<Page> {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width, height: width === 375 ? 812 : 900 },
  });
  return context.newPage();
}

async function join(page: Page, name: string, referralCode?: string) {
  const email = newEmail(name);
  await joinThroughApi(page, {
    email,
    password: PASSWORD,
    ...(referralCode ? { referralCode } : {}),
    confirmationLink: async (to) =>
      linkIn(await mailTo(to, /^Confirm your e-mail address$/), 'Confirm your address')!,
  });
  return email;
}

const codeOf = (page: Page) =>
  page.evaluate(async () => (await (await fetch('/api/me')).json()).referralCode as string);

async function publish(): Promise<number> {
  const res = await api.post('/api/operator/distributions', {
    headers: { authorization: `Bearer ${OPERATOR_KEY}` },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { index: number }).index;
}

test('claim for me, the round mail and its link, and an unsubscribe that needs no sign-in', async ({
  browser,
}) => {
  test.setTimeout(480_000);

  // Ada turns "Claim for me each round" on, on her phone.
  const ada = await memberPage(browser, 375);
  const adaEmail = await join(ada, 'ada');
  await ada.goto('/account');
  const section = ada.getByRole('region', { name: 'Notifications' });
  const claimForMe = section.getByRole('switch', { name: 'Claim for me each round' });
  await expect(claimForMe).not.toBeChecked();
  await expect(section).toContainText(
    'When a round comes out, the community sends your claim and pays its fee',
  );
  await claimForMe.click();
  await expect(claimForMe).toBeChecked();
  await ada.reload();
  await expect(claimForMe).toBeChecked();
  await section.scrollIntoViewIfNeeded();
  await capture(ada, 'notification-choices', {
    include: 'section[aria-labelledby="notifications-title"]',
  });

  // Ben leaves it off.
  const ben = await memberPage(browser);
  const benEmail = await join(ben, 'ben');

  // The operator publishes; Ada presses nothing.
  await ada.goto('/dashboard');
  const round = await publish();
  const card = ada.getByTestId('sponsored-claim');
  await expect(card.getByRole('heading', { name: 'Claimed for you' })).toBeVisible({
    timeout: 60_000,
  });
  await expect(card).toContainText(
    '200.00 REME are in your wallet. Your community sent the claim for you',
  );
  await expect(ada.getByTestId('reme-balance')).toHaveText('200.00', { timeout: 15_000 });
  await expect(ada.getByTestId('tokens-to-claim')).toHaveCount(0);
  await capture(ada, 'claimed-for-you');
  const claimed = await mailTo(adaEmail, /^Claimed for you/);
  expect(claimed.subject).toBe('Claimed for you: 200.00 REME');
  expect(mailsTo(adaEmail).some((m) => m.subject.includes('to claim'))).toBe(false);

  // Ben's round mail: its link opens the claim screen.
  const roundMail = await mailTo(benEmail, new RegExp(`^Round ${round}: `));
  expect(roundMail.subject).toBe(`Round ${round}: 200.00 REME to claim`);
  expect(roundMail.text).toContain('Hi Ada,'); // every API-made member is named Ada Lovelace
  const claimLink = linkIn(roundMail, 'Claim your REME')!;
  expect(new URL(claimLink).pathname).toBe('/claim');
  await ben.goto(claimLink);
  await expect(
    ben.getByRole('button', { name: /Claim 200\.00 REME|Complete/ }).first(),
  ).toBeVisible();

  // Its Unsubscribe link, in a browser that is not signed in: asked once, then done.
  expect(roundMail.listUnsubscribe).toMatch(
    /^<http:\/\/127\.0\.0\.1:\d+\/api\/unsubscribe\?.*t=rounds/,
  );
  const stranger = await memberPage(browser, 375);
  await stranger.goto(linkIn(roundMail, 'Unsubscribe')!);
  await expect(stranger.getByRole('heading', { name: 'Stop these mails?' })).toBeVisible();
  await capture(stranger, 'unsubscribe-ask');
  await stranger.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(stranger.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
  await expect(
    stranger.getByText('No more mails about new rounds and reminders to claim.'),
  ).toBeVisible();
  // The same link again: it was used.
  await stranger.goto(linkIn(roundMail, 'Unsubscribe')!);
  await stranger.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(stranger.getByRole('heading', { name: 'This link does not work' })).toBeVisible();
  await expect(stranger.getByRole('alert')).toContainText('This link was already used');
  await ben.goto('/account');
  await expect(
    ben
      .getByRole('region', { name: 'Notifications' })
      .getByRole('switch', { name: 'Mails about new rounds' }),
  ).not.toBeChecked();

  // Cleo joins through Ben's link: the next round gives both more, and only Cleo is mailed.
  const cleo = await memberPage(browser);
  const cleoEmail = await join(cleo, 'cleo', await codeOf(ben));
  const next = await publish();
  await mailTo(cleoEmail, new RegExp(`^Round ${next}: `));
  expect(mailsTo(benEmail).filter((m) => m.subject.startsWith(`Round ${next}`))).toEqual([]);
});
