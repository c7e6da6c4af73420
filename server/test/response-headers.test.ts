// Headers that keep secrets out of caches and powers out of reach: every /auth answer (sessions,
// two-factor secrets and backup codes, tokens) is Cache-Control: no-store, the CSP allows no inline
// style or script, and Permissions-Policy denies the browser features the app does not use
// (docs/security.md#input-and-exposure).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cookieOf,
  joinAndConfirm,
  makeMemberKeys,
  ORIGIN,
  signIn,
  type MemberKeys,
} from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

let t: TestApp;
let keys: MemberKeys;

beforeAll(async () => {
  t = await buildTestApp({ chain: false });
  keys = await makeMemberKeys();
  await joinAndConfirm(t.app, t.services.database.db, keys);
}, 60_000);
afterAll(() => t?.close());

const post = (url: string, payload: object, cookie?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
    payload,
  });

describe(`/auth answers are never stored by a cache (${testDbKind})`, () => {
  it('a sign-in (the session cookie) and a two-factor enrolment (its secret and backup codes)', async () => {
    const signedIn = await signIn(t.app, keys.email, keys.authSecret);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.headers['cache-control']).toBe('no-store');
    const enabled = await post(
      '/auth/two-factor/enable',
      { password: keys.authSecret },
      cookieOf(signedIn.headers['set-cookie']),
    );
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect(enabled.json()).toHaveProperty('backupCodes');
    expect(enabled.headers['cache-control']).toBe('no-store');
  });

  it('refusals, the keys, the mailed links and unknown /auth paths too', async () => {
    for (const res of [
      await signIn(t.app, keys.email, 'f'.repeat(64)),
      await t.app.inject({ method: 'GET', url: '/auth/.well-known/jwks.json' }),
      await t.app.inject({ method: 'GET', url: '/auth/verify-email?token=x' }),
      await t.app.inject({ method: 'GET', url: '/auth/reset-password/abc?callbackURL=/reset' }),
      await t.app.inject({ method: 'GET', url: '/auth/list-sessions' }),
      await t.app.inject({ method: 'GET', url: '/%61uth/get-session' }),
    ])
      expect(res.headers['cache-control'], res.raw.req.url).toBe('no-store');
  });
});

describe('the browser policy headers', () => {
  it('allows no inline style or script in the CSP', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    const csp = String(res.headers['content-security-policy']);
    const styleSrc = /(?:^|;)\s*style-src ([^;]*)/.exec(csp)?.[1];
    expect(styleSrc).toBeDefined();
    expect(styleSrc).not.toContain("'unsafe-inline'");
    expect(csp).not.toContain("'unsafe-inline'");
    expect(csp).not.toContain("'unsafe-eval'");
  });

  it('denies camera, microphone, location, payment and device access; keeps the clipboard and sharing', async () => {
    for (const url of ['/', '/api/health', '/auth/.well-known/jwks.json']) {
      const policy = String(
        (await t.app.inject({ method: 'GET', url })).headers['permissions-policy'],
      );
      for (const denied of [
        'camera',
        'microphone',
        'geolocation',
        'payment',
        'usb',
        'serial',
        'hid',
      ])
        expect(policy, url).toMatch(new RegExp(`(^|, )${denied}=\\(\\)`));
      expect(policy).toContain('clipboard-write=(self)');
      expect(policy).toContain('web-share=(self)');
    }
  });
});
