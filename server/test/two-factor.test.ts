// Two-factor sign-in: enrolment with an authenticator app, the code asked at sign-in,
// backup codes once each, wrong codes limited, and turning it off with the password and a code.
import { BACKUP_CODE_ALPHABET, canonicalBackupCode } from '@crw/core';
import { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newBackupCodes } from '../src/infra/identity/auth';
import {
  cloneMemberKeys,
  cookieOf,
  joinAndConfirm,
  makeMemberKeys,
  ORIGIN,
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
    env: { AUTH_RATE_LIMIT_PER_IP: '200', AUTH_RATE_LIMIT_PER_EMAIL: '50' },
  });
  base = await makeMemberKeys();
}, 60_000);
afterAll(() => t?.close());

const post = (url: string, payload: unknown, cookie?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
    payload: payload as object,
  });
const security = (cookie: string) =>
  t.app.inject({ method: 'GET', url: '/api/account/security', headers: { cookie } });

async function newMember(): Promise<MemberKeys> {
  const keys = await cloneMemberKeys(base);
  await joinAndConfirm(t.app, t.services.database.db, keys);
  return keys;
}

/** Enrols the member; the authenticator (as the test's app) and their backup codes. */
async function enrol(
  keys: MemberKeys,
): Promise<{ totp: TOTP; backupCodes: string[]; cookie: string }> {
  const cookie = await signedInCookie(t.app, keys);
  const enabled = await post('/auth/two-factor/enable', { password: keys.authSecret }, cookie);
  expect(enabled.statusCode, enabled.body).toBe(200);
  const { totpURI, backupCodes } = enabled.json() as { totpURI: string; backupCodes: string[] };
  const uri = new URL(totpURI);
  expect(uri.protocol).toBe('otpauth:');
  expect(decodeURIComponent(uri.pathname)).toContain(keys.email);
  expect(uri.searchParams.get('issuer')).toBe('REME Wallet');
  const totp = new TOTP({ secret: uri.searchParams.get('secret')!, digits: 6, period: 30 });
  // Not on until a code from the app proves it was set up.
  expect((await security(cookie)).json().twoFactorEnabled).toBe(false);
  const verified = await post('/auth/two-factor/verify-totp', { code: totp.generate() }, cookie);
  expect(verified.statusCode, verified.body).toBe(200);
  const renewed = cookieOf(verified.headers['set-cookie']) || cookie;
  expect((await security(renewed)).json().twoFactorEnabled).toBe(true);
  return { totp, backupCodes, cookie: renewed };
}

/** The password step of a sign-in that then asks for the code: the pending sign-in's cookie. */
async function passwordStep(keys: MemberKeys): Promise<string> {
  const res = await signIn(t.app, keys.email, keys.authSecret);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toMatchObject({ twoFactorRedirect: true });
  const cookie = cookieOf(res.headers['set-cookie']);
  expect(cookie).toMatch(/two_factor=/);
  expect(cookie).not.toMatch(/session_token=[^;]/);
  return cookie;
}

const wrongCode = (totp: TOTP) =>
  String((Number(totp.generate()) + 1) % 1_000_000).padStart(6, '0');

describe(`two-factor sign-in (${testDbKind})`, () => {
  it('enrols, is asked at sign-in, refuses a wrong code, takes a backup code once, turns off', async () => {
    const keys = await newMember();
    const { totp, backupCodes } = await enrol(keys);
    expect(backupCodes).toHaveLength(10);

    // Password right, no session yet: the member's pages stay closed.
    const pending = await passwordStep(keys);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: pending } }))
        .statusCode,
    ).toBe(401);
    const wrong = await post('/auth/two-factor/verify-totp', { code: wrongCode(totp) }, pending);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 'invalid_two_factor_code' });
    const right = await post('/auth/two-factor/verify-totp', { code: totp.generate() }, pending);
    expect(right.statusCode, right.body).toBe(200);
    const session = cookieOf(right.headers['set-cookie']);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: session } }))
        .statusCode,
    ).toBe(200);
    // The pending sign-in is used up: its cookie makes no second session.
    expect(
      (await post('/auth/two-factor/verify-totp', { code: totp.generate() }, pending)).statusCode,
    ).toBe(401);

    // A backup code works once.
    const viaBackup = await post(
      '/auth/two-factor/verify-backup-code',
      { code: backupCodes[0] },
      await passwordStep(keys),
    );
    expect(viaBackup.statusCode, viaBackup.body).toBe(200);
    const again = await post(
      '/auth/two-factor/verify-backup-code',
      { code: backupCodes[0] },
      await passwordStep(keys),
    );
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({ code: 'invalid_two_factor_code' });

    // Off: the password alone, a code alone, or a wrong code leave it on.
    const cookie = cookieOf(viaBackup.headers['set-cookie']);
    expect(
      (await post('/auth/two-factor/disable', { password: keys.authSecret }, cookie)).statusCode,
    ).toBe(400);
    expect(
      (await post('/auth/two-factor/disable', { code: totp.generate() }, cookie)).statusCode,
    ).toBe(400);
    const badCode = await post(
      '/auth/two-factor/disable',
      { password: keys.authSecret, code: wrongCode(totp) },
      cookie,
    );
    expect(badCode.statusCode).toBe(400);
    expect(badCode.json()).toMatchObject({ code: 'invalid_two_factor_code' });
    const badPassword = await post(
      '/auth/two-factor/disable',
      { password: 'f'.repeat(64), code: totp.generate() },
      cookie,
    );
    expect(badPassword.statusCode).toBe(400);
    expect(badPassword.json()).toMatchObject({ code: 'invalid_credentials' });
    expect((await security(cookie)).json().twoFactorEnabled).toBe(true);
    const off = await post(
      '/auth/two-factor/disable',
      { password: keys.authSecret, code: backupCodes[1] },
      cookie,
    );
    expect(off.statusCode, off.body).toBe(200);
    expect(
      (await security(cookieOf(off.headers['set-cookie']) || cookie)).json().twoFactorEnabled,
    ).toBe(false);
    const plain = await signIn(t.app, keys.email, keys.authSecret);
    expect(plain.json()).toMatchObject({ user: { email: keys.email } });
  });

  it('backup codes: ten of eight characters in two groups, none of I, O, 0, 1 (nor l, o)', () => {
    const seen = new Set<string>();
    for (let set = 0; set < 2_000; set++) {
      const codes = newBackupCodes();
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      for (const code of codes) {
        expect(code).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
        expect(code).not.toMatch(/[lIi1oO0]/);
        for (const c of code.replace('-', '')) seen.add(c);
      }
    }
    // 160,000 draws reach every character of the alphabet, and nothing else.
    expect([...seen].sort().join('')).toBe([...BACKUP_CODE_ALPHABET].sort().join(''));
    expect(BACKUP_CODE_ALPHABET).toHaveLength(32);
    // Codes made before this alphabet (better-auth's own) are compared as typed.
    expect(canonicalBackupCode('AbCdE-12345')).toBe('AbCdE-12345');
    expect(canonicalBackupCode(' abcd efgh ')).toBe('ABCD-EFGH');
  });

  it('a backup code signs in as the member types it: any case, with the dash or without', async () => {
    const keys = await newMember();
    const { backupCodes } = await enrol(keys);
    for (const code of backupCodes) expect(code).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    const [first, second, third] = backupCodes as [string, string, string];

    const typed = first.replace('-', '').toLowerCase();
    const viaTyped = await post(
      '/auth/two-factor/verify-backup-code',
      { code: typed },
      await passwordStep(keys),
    );
    expect(viaTyped.statusCode, viaTyped.body).toBe(200);
    // Used once, in whichever shape it is typed again.
    for (const again of [first, typed, first.toLowerCase()]) {
      const refused = await post(
        '/auth/two-factor/verify-backup-code',
        { code: again },
        await passwordStep(keys),
      );
      expect(refused.statusCode, again).toBe(401);
    }
    const spaced = await post(
      '/auth/two-factor/verify-backup-code',
      { code: `${second.slice(0, 4).toLowerCase()} ${second.slice(5)}` },
      await passwordStep(keys),
    );
    expect(spaced.statusCode, spaced.body).toBe(200);

    // Turning it off takes one typed the same way.
    const cookie = cookieOf(spaced.headers['set-cookie']);
    const off = await post(
      '/auth/two-factor/disable',
      { password: keys.authSecret, code: third.replace('-', '').toLowerCase() },
      cookie,
    );
    expect(off.statusCode, off.body).toBe(200);
  });

  it('ends a pending sign-in after 5 wrong codes and locks the second factor after 10 in a row', async () => {
    const keys = await newMember();
    const { totp } = await enrol(keys);
    const pending = await passwordStep(keys);
    for (let i = 0; i < 5; i++)
      expect(
        (await post('/auth/two-factor/verify-totp', { code: wrongCode(totp) }, pending)).statusCode,
      ).toBe(401);
    const sixth = await post('/auth/two-factor/verify-totp', { code: totp.generate() }, pending);
    expect(sixth.statusCode).toBe(400);
    expect(sixth.json()).toMatchObject({ code: 'two_factor_expired' });
    // Five more on a new sign-in: ten in a row lock even the right code out.
    const next = await passwordStep(keys);
    for (let i = 0; i < 5; i++)
      await post('/auth/two-factor/verify-totp', { code: wrongCode(totp) }, next);
    const locked = await post(
      '/auth/two-factor/verify-totp',
      { code: totp.generate() },
      await passwordStep(keys),
    );
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ code: 'two_factor_locked' });
  });

  it('refuses enrolment and disabling without a session, a wrong password, and malformed codes', async () => {
    const keys = await newMember();
    expect((await post('/auth/two-factor/enable', { password: keys.authSecret })).statusCode).toBe(
      401,
    );
    expect(
      (await post('/auth/two-factor/disable', { password: keys.authSecret, code: '123456' }))
        .statusCode,
    ).toBe(401);
    expect((await post('/auth/two-factor/verify-totp', { code: '123456' })).statusCode).toBe(401);
    const cookie = await signedInCookie(t.app, keys);
    const wrongPassword = await post(
      '/auth/two-factor/enable',
      { password: 'f'.repeat(64) },
      cookie,
    );
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json()).toMatchObject({ code: 'invalid_credentials' });
    for (const code of ['12345', '1234567', 'abcdef', '', 12, '12345\u0000', 'x'.repeat(10_000)]) {
      expect(
        (await post('/auth/two-factor/verify-totp', { code }, cookie)).statusCode,
        String(code),
      ).toBe(400);
      expect((await post('/auth/two-factor/verify-backup-code', { code }, cookie)).statusCode).toBe(
        400,
      );
    }
    expect(
      (
        await post(
          '/auth/two-factor/enable',
          { password: keys.authSecret, trustDevice: true, method: 'otp' },
          cookie,
        )
      ).statusCode,
    ).toBe(400);
  });

  it('limits code attempts per client address like sign-in', async () => {
    const limited = await buildTestApp({
      chain: false,
      sameDatabaseAs: t,
      env: { AUTH_RATE_LIMIT_PER_IP: '3' },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await limited.app.inject({
          method: 'POST',
          url: '/auth/two-factor/verify-totp',
          remoteAddress: '203.0.113.9',
          headers: { origin: ORIGIN },
          payload: { code: '000000' },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
      expect(statuses.slice(3)).toEqual([429, 429]);
    } finally {
      await limited.close();
    }
  });
});
