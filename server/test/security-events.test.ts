// Security events (docs/security.md#security-events), on PGlite and PostgreSQL: a sign-in on a
// device the member never used, the password changed or reset, two-factor turned on and off, the
// data downloaded — each recorded once, where it happens, with its mail (the member's name, what,
// when, the device and network; no token, cookie or secret) and a line in the member's activity;
// never in another member's, never for a stranger; gone with the account. And the attacks: a
// forged or malformed device cookie, changing an event in SQL, hiding one by marking it seen.
import { deriveAuthSecret } from '@crw/core';
import { sql } from 'kysely';
import { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_COOKIE } from '../src/infra/identity/auth';
import { passGate } from '../src/testing/signup-gate';
import {
  cloneMemberKeys,
  cookieOf,
  joinAndConfirm,
  makeMemberKeys,
  openConfirmationLink,
  ORIGIN,
  registerBody,
  walletProof,
  type MemberKeys,
} from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const MAC_SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const WINDOWS_FIREFOX =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

let t: TestApp;
let base: MemberKeys;
const db = () => t.services.database.db;

beforeAll(async () => {
  t = await buildTestApp({
    chain: false,
    env: {
      PUBLIC_URL: ORIGIN,
      AUTH_RATE_LIMIT_PER_IP: '100000',
      AUTH_RATE_LIMIT_PER_EMAIL: '1000',
    },
  });
  base = await makeMemberKeys();
}, 60_000);
afterAll(() => t?.close());

interface Member {
  keys: MemberKeys;
  userId: string;
  /** The cookies of the browser the member confirmed in: its session and its device cookie. */
  browser: string;
}

/** A confirmed member whose browser (the one that opened the link) is their first device; `age`
 * makes the account that much older, past the first day in which devices are learned silently. */
async function member(opts: { ageHours?: number; firstName?: string } = {}): Promise<Member> {
  const keys = await cloneMemberKeys(base);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/register',
    payload: await registerBody(t.app, keys, { firstName: opts.firstName ?? 'Ada' }),
  });
  expect(res.statusCode, res.body).toBe(201);
  const userId = res.json().userId as string;
  const browser = await openConfirmationLink(t.app, db(), keys.email);
  expect(browser).toMatch(new RegExp(`crw\\.${DEVICE_COOKIE}=[A-Za-z0-9_-]{43}`));
  if (opts.ageHours)
    await sql`UPDATE "user" SET "createdAt" = now() - make_interval(hours => ${opts.ageHours})
               WHERE id = ${userId}`.execute(db());
  return { keys, userId, browser };
}

const deviceCookieOf = (cookies: string) =>
  cookies.split('; ').find((c) => c.startsWith(`crw.${DEVICE_COOKIE}=`)) ?? '';

/** Signs in as a browser would: with its user agent and whatever cookies it holds. */
async function signInFrom(
  keys: MemberKeys,
  opts: { userAgent?: string; cookie?: string; remoteAddress?: string } = {},
) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/sign-in/email',
    headers: {
      origin: ORIGIN,
      ...(opts.userAgent ? { 'user-agent': opts.userAgent } : {}),
      ...(opts.cookie ? { cookie: opts.cookie } : {}),
    },
    ...(opts.remoteAddress ? { remoteAddress: opts.remoteAddress } : {}),
    payload: { email: keys.email, password: keys.authSecret },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { res, cookie: cookieOf(res.headers['set-cookie']) };
}

const eventsOf = async (userId: string) =>
  (
    await db()
      .selectFrom('security_events')
      .select(['kind', 'detail'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute()
  ).map((e) => ({ kind: e.kind, ...e.detail }));

const mailsTo = (email: string) =>
  db()
    .selectFrom('mail_outbox')
    .select(['subject', 'text_body', 'html_body'])
    .where('to_address', '=', email)
    .orderBy('id')
    .execute();

const activity = async (cookie: string) => {
  const res = await t.app.inject({ method: 'GET', url: '/api/activity', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    items: Array<{ id: string; kind: string; at: string; securityEvent?: string; device?: string }>;
    unread: number;
  };
};
const securityLines = async (cookie: string) =>
  (await activity(cookie)).items
    .filter((i) => i.kind === 'security')
    .map((i) => [i.securityEvent, i.device]);

const post = (url: string, payload: unknown, cookie: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { origin: ORIGIN, cookie },
    payload: payload as object,
  });

/** What no mail may hold: the member's secrets, the session and device cookies, the server's key. */
function expectNoSecrets(
  mails: Array<{ text_body: string; html_body: string | null }>,
  secrets: string[],
) {
  for (const mail of mails)
    for (const secret of [...secrets, t.services.signingKey]) {
      expect(mail.text_body).not.toContain(secret);
      expect(mail.html_body ?? '').not.toContain(secret);
    }
}
const cookieValues = (cookies: string) =>
  cookies
    .split('; ')
    .map((c) => decodeURIComponent(c.slice(c.indexOf('=') + 1)))
    .filter((v) => v.length > 0);

describe(`security events: a sign-in on a new device (${testDbKind})`, () => {
  it('is recorded once with its device and network, mailed, and listed; the same browser again is not news', async () => {
    const m = await member({ ageHours: 48, firstName: 'Grace' });
    // The browser the member confirmed in signs in again: known.
    await signInFrom(m.keys, { cookie: deviceCookieOf(m.browser), userAgent: MAC_SAFARI });
    expect(await eventsOf(m.userId)).toEqual([]);

    // A phone that never signed in as this member.
    const phone = await signInFrom(m.keys, {
      userAgent: ANDROID_CHROME,
      remoteAddress: '203.0.113.77',
    });
    expect(deviceCookieOf(phone.cookie)).not.toBe('');
    expect(await eventsOf(m.userId)).toEqual([
      { kind: 'new_device', device: 'Chrome on Android', network: '203.0.113.0/24' },
    ]);
    // The phone again (its device cookie with it): nothing more.
    await signInFrom(m.keys, {
      userAgent: ANDROID_CHROME,
      cookie: deviceCookieOf(phone.cookie),
      remoteAddress: '203.0.113.77',
    });
    expect(await eventsOf(m.userId)).toHaveLength(1);

    const mails = (await mailsTo(m.keys.email)).filter(
      (x) => x.subject !== 'Confirm your e-mail address',
    );
    expect(mails.map((x) => x.subject)).toEqual(['New sign-in to your account']);
    const text = mails[0]!.text_body;
    expect(text).toContain('Hi Grace,');
    expect(text).toContain('signed in to on a device or browser it had not been used on before');
    expect(text).toMatch(/When: \d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC/);
    expect(text).toContain('Device: Chrome on Android, network 203.0.113.0/24');
    expect(text).toContain('Not you? Change your password');
    expect(text).toContain(`Change your password: ${ORIGIN}/account`);
    expect(mails[0]!.html_body).toContain('New sign-in on Chrome on Android');
    expect(mails[0]!.html_body).toContain(`href="${ORIGIN}/account"`);
    // Only the account page's link: nothing to sign in with, no cookie, no user agent.
    expect(text.match(/https?:\/\/\S+/g)).toEqual([`${ORIGIN}/account`]);
    expectNoSecrets(mails, [
      m.keys.authSecret,
      m.keys.password,
      ...cookieValues(phone.cookie),
      ...cookieValues(m.browser),
      ANDROID_CHROME,
      '203.0.113.77',
    ]);

    expect(await securityLines(phone.cookie)).toEqual([['new_device', 'Chrome on Android']]);
  });

  it('is not news in the first day of an account, nor the first sign-in a member ever makes', async () => {
    // A new member: the confirmation's browser, then two more browsers, all in the first day.
    const young = await member();
    await signInFrom(young.keys, { userAgent: ANDROID_CHROME });
    await signInFrom(young.keys, { userAgent: WINDOWS_FIREFOX });
    expect(await eventsOf(young.userId)).toEqual([]);
    expect((await mailsTo(young.keys.email)).map((x) => x.subject)).toEqual([
      'Confirm your e-mail address',
    ]);

    // A member from before devices were recorded (none known): the first sign-in is learned,
    // the next new browser is news.
    const older = await member({ ageHours: 24 * 30 });
    await db().deleteFrom('member_devices').where('user_id', '=', older.userId).execute();
    await signInFrom(older.keys, { userAgent: WINDOWS_FIREFOX });
    expect(await eventsOf(older.userId)).toEqual([]);
    await signInFrom(older.keys, { userAgent: ANDROID_CHROME });
    expect((await eventsOf(older.userId)).map((e) => e.kind)).toEqual(['new_device']);
  });

  it('a forged, malformed or another member’s device cookie is a new device; the database keeps only its hash', async () => {
    const m = await member({ ageHours: 48 });
    const other = await member({ ageHours: 48 });
    const stored = await db()
      .selectFrom('member_devices')
      .select('device_hash')
      .where('user_id', '=', m.userId)
      .executeTakeFirstOrThrow();
    const known = deviceCookieOf(m.browser).split('=')[1]!;
    expect(stored.device_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.device_hash).not.toContain(known);
    // The hash itself as the cookie, a malformed value, another member's browser's cookie.
    for (const cookie of [
      `crw.${DEVICE_COOKIE}=${stored.device_hash}`,
      `crw.${DEVICE_COOKIE}=${'x'.repeat(43)}'; DROP TABLE member_devices; --`,
      deviceCookieOf(other.browser),
    ]) {
      const { cookie: given } = await signInFrom(m.keys, { cookie, userAgent: WINDOWS_FIREFOX });
      // A malformed cookie is replaced by a fresh one.
      expect(deviceCookieOf(given)).toMatch(
        new RegExp(`^crw\\.${DEVICE_COOKIE}=[A-Za-z0-9_-]{43}$`),
      );
    }
    expect((await eventsOf(m.userId)).map((e) => e.kind)).toEqual([
      'new_device',
      'new_device',
      'new_device',
    ]);
    expect(await eventsOf(other.userId)).toEqual([]);
  });
});

describe(`security events: two-factor and the password (${testDbKind})`, () => {
  it('two-factor on, a sign-in through the code on a new device, two-factor off: one event each, none for the renewed sessions', async () => {
    const m = await member({ ageHours: 48 });
    const enabled = await post(
      '/auth/two-factor/enable',
      { password: m.keys.authSecret },
      m.browser,
    );
    expect(enabled.statusCode, enabled.body).toBe(200);
    const totp = new TOTP({
      secret: new URL(enabled.json().totpURI as string).searchParams.get('secret')!,
      digits: 6,
      period: 30,
    });
    // Enrolment's first code turns it on and renews the session (a browser with no device cookie,
    // as a session from before devices were recorded: still not a new device).
    const session = m.browser
      .split('; ')
      .filter((c) => !c.startsWith(`crw.${DEVICE_COOKIE}=`))
      .join('; ');
    const verified = await post('/auth/two-factor/verify-totp', { code: totp.generate() }, session);
    expect(verified.statusCode, verified.body).toBe(200);
    expect((await eventsOf(m.userId)).map((e) => e.kind)).toEqual(['two_factor_on']);

    // The password step from a new phone: no session yet, nothing recorded.
    const step = await signInFrom(m.keys, { userAgent: ANDROID_CHROME });
    expect(step.res.json()).toMatchObject({ twoFactorRedirect: true });
    expect((await eventsOf(m.userId)).map((e) => e.kind)).toEqual(['two_factor_on']);
    // The code: the sign-in, on a new device.
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/auth/two-factor/verify-totp',
      headers: { origin: ORIGIN, cookie: step.cookie, 'user-agent': ANDROID_CHROME },
      payload: { code: totp.generate() },
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const phone = cookieOf(signedIn.headers['set-cookie']);
    expect((await eventsOf(m.userId)).map((e) => e.kind)).toEqual(['two_factor_on', 'new_device']);

    const off = await post(
      '/auth/two-factor/disable',
      { password: m.keys.authSecret, code: totp.generate() },
      phone,
    );
    expect(off.statusCode, off.body).toBe(200);
    expect(await eventsOf(m.userId)).toEqual([
      { kind: 'two_factor_on', device: 'Unknown device', network: '127.0.0.0/24' },
      { kind: 'new_device', device: 'Chrome on Android', network: '127.0.0.0/24' },
      { kind: 'two_factor_off', device: 'Unknown device', network: '127.0.0.0/24' },
    ]);
    const subjects = (await mailsTo(m.keys.email)).map((x) => x.subject);
    expect(subjects.slice(1)).toEqual([
      'Two-factor sign-in was turned on',
      'New sign-in to your account',
      'Two-factor sign-in was turned off',
    ]);
    const renewed = cookieOf(off.headers['set-cookie']);
    expect((await securityLines(renewed)).map(([kind]) => kind)).toEqual([
      'two_factor_off',
      'new_device',
      'two_factor_on',
    ]);
  });

  it('the password changed on the account page: one event in the change, its mail, the open pages told', async () => {
    const m = await member({ firstName: 'Ada' });
    const newAuthSecret = await deriveAuthSecret('a brand new password', m.keys.email, 1000);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/account/password',
      headers: { origin: ORIGIN, cookie: m.browser, 'user-agent': WINDOWS_FIREFOX },
      payload: {
        currentAuthSecret: m.keys.authSecret,
        newAuthSecret,
        wallet: {
          address: m.keys.address,
          keystore: JSON.stringify({ ...JSON.parse(m.keys.keystore), id: crypto.randomUUID() }),
          proof: await walletProof(t.app, m.keys, 'change-password', m.browser),
        },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await eventsOf(m.userId)).toEqual([
      { kind: 'password_changed', device: 'Firefox on Windows', network: '127.0.0.0/24' },
    ]);
    const mails = await mailsTo(m.keys.email);
    expect(mails.map((x) => x.subject)).toEqual([
      'Confirm your e-mail address',
      'Your password was changed',
    ]);
    expect(mails[1]!.text_body).toContain('Hi Ada,');
    expectNoSecrets(mails.slice(1), [m.keys.authSecret, newAuthSecret, ...cookieValues(m.browser)]);
    expect(await securityLines(m.browser)).toEqual([['password_changed', 'Firefox on Windows']]);

    // A change refused (a wrong current password) records nothing.
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/account/password',
      headers: { origin: ORIGIN, cookie: m.browser },
      payload: {
        currentAuthSecret: m.keys.authSecret, // the old one: wrong now
        newAuthSecret: m.keys.authSecret,
        wallet: {
          address: m.keys.address,
          keystore: m.keys.keystore,
          proof: await walletProof(t.app, m.keys, 'change-password', m.browser),
        },
      },
    });
    expect(refused.statusCode).toBe(403);
    expect(await eventsOf(m.userId)).toHaveLength(1);
  });

  it('the password reset with a mailed link: one event and its mail; the reset link itself is in no security mail', async () => {
    const m = await member();
    await t.app.inject({
      method: 'POST',
      url: '/auth/request-password-reset',
      headers: { origin: ORIGIN },
      payload: {
        email: m.keys.email,
        redirectTo: '/reset-password',
        gate: await passGate(t.app, 'reset'),
      },
    });
    const resetMail = (await mailsTo(m.keys.email)).at(-1)!;
    const token = /\/auth\/reset-password\/([^?\s]+)/.exec(resetMail.text_body)![1]!;
    const reset = await t.app.inject({
      method: 'POST',
      url: '/auth/reset-password',
      headers: { origin: ORIGIN, 'user-agent': MAC_SAFARI },
      payload: { token, newPassword: 'c'.repeat(64) },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(await eventsOf(m.userId)).toEqual([
      { kind: 'password_changed', device: 'Safari on macOS', network: '127.0.0.0/24' },
    ]);
    const security = (await mailsTo(m.keys.email)).filter(
      (x) => x.subject === 'Your password was changed',
    );
    expect(security).toHaveLength(1);
    expectNoSecrets(security, [token, 'c'.repeat(64), m.keys.authSecret]);
  });
});

describe(`security events: the data downloaded (${testDbKind})`, () => {
  it('one event and one mail for a download, none for another within the quiet time, one after it', async () => {
    const m = await member();
    const download = () =>
      t.app.inject({
        method: 'GET',
        url: '/api/account/export',
        headers: { cookie: m.browser, 'user-agent': ANDROID_CHROME },
      });
    expect((await download()).statusCode).toBe(200);
    expect((await download()).statusCode).toBe(200);
    // Three at once: still the one event.
    await Promise.all([download(), download(), download()]);
    expect((await eventsOf(m.userId)).map((e) => e.kind)).toEqual(['export']);
    expect(
      (await mailsTo(m.keys.email)).filter((x) => x.subject === 'Your data was downloaded'),
    ).toHaveLength(1);
    // Once the last download is older than the quiet time (here: gone), a download is news again.
    await db().deleteFrom('security_events').where('user_id', '=', m.userId).execute();
    expect((await download()).statusCode).toBe(200);
    expect((await eventsOf(m.userId)).map((e) => e.kind)).toEqual(['export']);
  });
});

describe(`security events: whose they are (${testDbKind})`, () => {
  it('another member never sees them, a stranger reads nothing, marking them seen hides none, SQL cannot change one, and they go with the account', async () => {
    const a = await member({ ageHours: 48 });
    const b = await member({ ageHours: 48 });
    await signInFrom(a.keys, { userAgent: ANDROID_CHROME });
    await t.app.inject({
      method: 'GET',
      url: '/api/account/export',
      headers: { cookie: a.browser },
    });
    expect((await eventsOf(a.userId)).map((e) => e.kind)).toEqual(['new_device', 'export']);

    expect(await securityLines(b.browser)).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/activity' })).statusCode).toBe(401);

    // The bell counts them; marking them seen leaves them listed.
    const before = await activity(a.browser);
    expect(before.unread).toBe(before.items.length);
    const seen = await post('/api/activity/seen', { upTo: before.items[0]!.at }, a.browser);
    expect(seen.statusCode, seen.body).toBe(200);
    const after = await activity(a.browser);
    expect(after.unread).toBe(0);
    expect(after.items.filter((i) => i.kind === 'security')).toHaveLength(2);

    // No route writes or removes one; and an event is never changed, even by SQL.
    for (const [method, url] of [
      ['POST', '/api/activity'],
      ['DELETE', '/api/activity'],
      ['PUT', '/api/activity'],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: { origin: ORIGIN, cookie: a.browser },
        payload: { kind: 'security', securityEvent: 'new_device' },
      });
      expect(res.statusCode).toBe(404);
    }
    await expect(
      sql`UPDATE security_events SET kind = 'export' WHERE user_id = ${a.userId}`.execute(db()),
    ).rejects.toThrow(/security events are not changed/);

    // Deleting the account takes its events and devices with it.
    const gone = await t.app.inject({
      method: 'DELETE',
      url: '/api/account',
      headers: { origin: ORIGIN, cookie: a.browser },
      payload: { authSecret: a.keys.authSecret },
    });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await eventsOf(a.userId)).toEqual([]);
    expect(
      await db()
        .selectFrom('member_devices')
        .select('user_id')
        .where('user_id', '=', a.userId)
        .execute(),
    ).toEqual([]);
    // Deletion itself sends nothing: nothing may name the member after it.
    expect(await mailsTo(a.keys.email)).toEqual([]);
  });

  it('a claim the community made for the member says so (forYou); one they asked for does not', async () => {
    const m = await member();
    const claim = (forMe: boolean) =>
      db()
        .insertInto('sponsored_claims')
        .values({
          user_id: m.userId,
          account: m.keys.address.toLowerCase(),
          round_index: forMe ? 2 : 1,
          cumulative_amount: (forMe ? 400n : 200n) * 10n ** 18n,
          amount: 200n * 10n ** 18n,
          signature: forMe ? null : '0x00',
          deadline: forMe ? null : new Date(),
          ...({ for_me: forMe } as object),
          status: 'confirmed',
          reserved_wei: 0n,
        })
        .execute();
    await claim(false);
    await claim(true);
    const claimed = (await activity(m.browser)).items
      .filter((i) => i.kind === 'claimed')
      .map((i) => (i as { forYou?: boolean }).forYou);
    expect(claimed.sort()).toEqual([false, true]);
  });

  it('joinAndConfirm members (the other tests’ helpers) see no security line', async () => {
    const keys = await cloneMemberKeys(base);
    await joinAndConfirm(t.app, db(), keys);
    const { cookie } = await signInFrom(keys);
    expect(await securityLines(cookie)).toEqual([]);
  });
});
