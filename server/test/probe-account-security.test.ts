// An attacker's look at the account page's security: what a password alone, a pending
// two-factor sign-in, a replayed link or code, or many guesses can reach. Each test asserts the
// safe outcome.
import { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cloneMemberKeys,
  cookieOf,
  makeMemberKeys,
  ORIGIN,
  registerBody,
  signedInCookie,
  signIn,
  type MemberKeys,
} from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

let t: TestApp;
let base: MemberKeys;

beforeAll(async () => {
  t = await buildTestApp({
    chain: false,
    env: { AUTH_RATE_LIMIT_PER_IP: '1000', AUTH_RATE_LIMIT_PER_EMAIL: '5' },
  });
  base = await makeMemberKeys();
}, 60_000);
afterAll(() => t?.close());

const post = (
  url: string,
  payload: unknown,
  cookie?: string,
  method: 'POST' | 'DELETE' | 'PUT' = 'POST',
) =>
  t.app.inject({
    method,
    url,
    headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
    payload: payload as object,
  });
const get = (url: string, cookie: string) =>
  t.app.inject({ method: 'GET', url, headers: { cookie } });

/** A confirmed member with two-factor sign-in on; also the confirmation link they were mailed. */
async function memberWithTwoFactor() {
  const keys = await cloneMemberKeys(base);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/register',
    payload: await registerBody(t.app, keys),
  });
  expect(res.statusCode).toBe(201);
  const mail = await t.services.database.db
    .selectFrom('mail_outbox')
    .select('text_body')
    .where('to_address', '=', keys.email)
    .executeTakeFirstOrThrow();
  const link = new URL(/https?:\/\/\S+\/auth\/verify-email\S*/.exec(mail.text_body)![0]);
  const confirmLink = `${link.pathname}${link.search}`;
  expect((await t.app.inject({ method: 'GET', url: confirmLink })).statusCode).toBe(302);
  const cookie = await signedInCookie(t.app, keys);
  const enabled = await post('/auth/two-factor/enable', { password: keys.authSecret }, cookie);
  const uri = new URL(enabled.json().totpURI as string);
  const totp = new TOTP({ secret: uri.searchParams.get('secret')!, digits: 6, period: 30 });
  const verified = await post('/auth/two-factor/verify-totp', { code: totp.generate() }, cookie);
  expect(verified.statusCode).toBe(200);
  return {
    keys,
    totp,
    confirmLink,
    backupCodes: enabled.json().backupCodes as string[],
    cookie: cookieOf(verified.headers['set-cookie']),
  };
}

async function pendingSignIn(keys: MemberKeys): Promise<string> {
  const res = await signIn(t.app, keys.email, keys.authSecret);
  expect(res.json()).toMatchObject({ twoFactorRedirect: true });
  return cookieOf(res.headers['set-cookie']);
}

describe(`probe: the account page's security (${testDbKind})`, () => {
  it('a pending two-factor sign-in (password right, no code) reaches no member route', async () => {
    const { keys } = await memberWithTwoFactor();
    const pending = await pendingSignIn(keys);
    for (const url of [
      '/api/me',
      '/api/account/security',
      '/api/account/export',
      '/api/events',
      '/api/claim',
      '/api/referrals/network',
    ]) {
      expect((await get(url, pending)).statusCode, url).toBe(401);
    }
    expect(
      (await post('/api/account/profile', { fullName: 'x', username: 'y' }, pending, 'PUT'))
        .statusCode,
    ).toBe(401);
    expect(
      (await post('/api/account', { authSecret: keys.authSecret }, pending, 'DELETE')).statusCode,
    ).toBe(401);
    expect((await post('/api/account/sessions/sign-out-others', {}, pending)).statusCode).toBe(401);
    expect(
      (await post('/auth/two-factor/enable', { password: keys.authSecret }, pending)).statusCode,
    ).toBe(401);
    expect(
      (
        await post(
          '/auth/two-factor/disable',
          { password: keys.authSecret, code: '000000' },
          pending,
        )
      ).statusCode,
    ).toBe(401);
    expect((await post('/api/handoff', {}, pending)).statusCode).toBe(401);
  });

  it('the mailed confirmation link, opened again, gives no session around the second factor', async () => {
    const { confirmLink } = await memberWithTwoFactor();
    const again = await t.app.inject({ method: 'GET', url: confirmLink });
    const cookie = cookieOf(again.headers['set-cookie']);
    if (cookie.includes('session_token='))
      expect((await get('/api/me', cookie)).statusCode).toBe(401);
  });

  it('a backup code raced from two pending sign-ins gives one session, not two', async () => {
    const { keys, backupCodes } = await memberWithTwoFactor();
    const [a, b] = [await pendingSignIn(keys), await pendingSignIn(keys)];
    const answers = await Promise.all(
      [a, b].map((cookie) =>
        post('/auth/two-factor/verify-backup-code', { code: backupCodes[0] }, cookie),
      ),
    );
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses[0]).toBe(200);
    expect(statuses[1]).toBeGreaterThanOrEqual(400);
    expect(statuses[1]).toBeLessThan(500);
  });

  it('a code used for one sign-in does not also turn the second factor off with a stolen session and no password', async () => {
    const { keys, totp, cookie } = await memberWithTwoFactor();
    for (const password of ['', 'f'.repeat(64)]) {
      const res = await post(
        '/auth/two-factor/disable',
        { password, code: totp.generate() },
        cookie,
      );
      expect(res.statusCode).toBe(400);
    }
    expect((await get('/api/account/security', cookie)).json().twoFactorEnabled).toBe(true);
    // Re-enrolling while on would replace the secret: refused.
    const again = await post('/auth/two-factor/enable', { password: keys.authSecret }, cookie);
    expect(again.statusCode).toBe(400);
    expect(JSON.stringify(again.json())).not.toContain('otpauth');
  });

  it('20 simultaneous sign-out-others, profile saves and session listings: no 500, one session left', async () => {
    const keys = await cloneMemberKeys(base);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: await registerBody(t.app, keys),
    });
    expect(res.statusCode).toBe(201);
    const mail = await t.services.database.db
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('to_address', '=', keys.email)
      .executeTakeFirstOrThrow();
    const link = new URL(/https?:\/\/\S+\/auth\/verify-email\S*/.exec(mail.text_body)![0]);
    await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    const here = await signedInCookie(t.app, keys);
    for (let i = 0; i < 3; i++) await signedInCookie(t.app, keys);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 3 === 0
          ? post('/api/account/sessions/sign-out-others', {}, here)
          : i % 3 === 1
            ? post('/api/account/profile', { fullName: `N${i}`, username: `u${i}` }, here, 'PUT')
            : get('/api/account/security', here),
      ),
    );
    expect(answers.map((r) => r.statusCode).filter((s) => s !== 200)).toEqual([]);
    expect((await get('/api/account/security', here)).json().sessions).toHaveLength(1);
  });

  it('a stolen session cannot guess the password through two-factor enrolment: the per-member count of re-authentication', async () => {
    const keys = await cloneMemberKeys(base);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: await registerBody(t.app, keys),
    });
    const mail = await t.services.database.db
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('to_address', '=', keys.email)
      .executeTakeFirstOrThrow();
    const link = new URL(/https?:\/\/\S+\/auth\/verify-email\S*/.exec(mail.text_body)![0]);
    await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(res.statusCode).toBe(201);
    const cookie = await signedInCookie(t.app, keys);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push(
        (
          await post(
            '/auth/two-factor/enable',
            { password: `${i}`.repeat(64).slice(0, 64) },
            cookie,
          )
        ).statusCode,
      );
    expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    // Even the right password now waits; and the count is the one the password change uses.
    expect(
      (await post('/auth/two-factor/enable', { password: keys.authSecret }, cookie)).statusCode,
    ).toBe(429);
    expect(
      (await post('/api/account', { authSecret: keys.authSecret }, cookie, 'DELETE')).statusCode,
    ).toBe(429);
  });

  it('oversized and odd bodies are refused before better-auth sees them', async () => {
    const { keys, cookie } = await memberWithTwoFactor();
    for (const body of [
      { code: ['123456'] },
      { code: { $gt: '' } },
      { code: '1'.repeat(10_000) },
      { __proto__: { code: '123456' } },
      { code: '123456', password: keys.authSecret, extra: 1 },
    ]) {
      expect(
        (await post('/auth/two-factor/disable', body, cookie)).statusCode,
        JSON.stringify(body),
      ).toBe(400);
    }
    expect(
      (
        await post(
          '/api/account/profile',
          { fullName: 'x'.repeat(200_000), username: 'a' },
          cookie,
          'PUT',
        )
      ).statusCode,
    ).toBeGreaterThanOrEqual(400);
  });
});
