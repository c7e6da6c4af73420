// An operator's console sessions end with the trust they were opened on: revoking the role, turning
// two-factor off or re-keying it, and changing the password each leave no session that passed the
// old second factor able to open the console, in this server process or another one on the same
// database (docs/security.md#the-operator-console).
import { deriveAuthSecret } from '@crw/core';
import { symmetricEncrypt } from 'better-auth/crypto';
import { sql } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cloneMemberKeys,
  cookieOf,
  joinAndConfirm,
  makeMemberKeys,
  ORIGIN,
  signedInCookie,
  signIn,
  walletProof,
  type MemberKeys,
} from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';
import { until } from './helpers/until';

const env = {
  PUBLIC_URL: ORIGIN,
  AUTH_RATE_LIMIT_PER_IP: '100000',
  AUTH_RATE_LIMIT_PER_EMAIL: '1000',
};
let t: TestApp;
/** A second server process on the same database (its own pool, its own memory of sessions). */
let other: TestApp;
let base: MemberKeys;

beforeAll(async () => {
  t = await buildTestApp({ chain: false, env });
  other = await buildTestApp({ chain: false, sameDatabaseAs: t, env });
  base = await makeMemberKeys();
}, 60_000);
afterAll(async () => {
  await other?.close();
  await t?.close();
});

type App = TestApp['app'];
const post = (app: App, url: string, payload: unknown, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url,
    headers: { origin: ORIGIN, ...headers },
    payload: payload as object,
  });
const get = (app: App, url: string, cookie: string) =>
  app.inject({ method: 'GET', url, headers: { cookie } });
const setRole = (email: string, operator: boolean) =>
  post(
    t.app,
    '/api/operator/operators',
    { email, operator },
    {
      authorization: `Bearer ${t.services.operatorKey}`,
    },
  );

interface Operator {
  keys: MemberKeys;
  userId: string;
  totp: TOTP;
}

/** Turns two-factor on from `cookie`: the authenticator (the test) and the renewed session. */
async function enrol(app: App, keys: MemberKeys, cookie: string) {
  const enabled = await post(
    app,
    '/auth/two-factor/enable',
    { password: keys.authSecret },
    { cookie },
  );
  expect(enabled.statusCode, enabled.body).toBe(200);
  const secret = new URL(enabled.json().totpURI as string).searchParams.get('secret')!;
  const totp = new TOTP({ secret, digits: 6, period: 30 });
  const verified = await post(
    app,
    '/auth/two-factor/verify-totp',
    { code: totp.generate() },
    { cookie },
  );
  expect(verified.statusCode, verified.body).toBe(200);
  return { totp, cookie: cookieOf(verified.headers['set-cookie']) };
}

/** A confirmed member with the operator role and two-factor sign-in on. */
async function newOperator(): Promise<Operator> {
  const keys = await cloneMemberKeys(base);
  const userId = await joinAndConfirm(t.app, t.services.database.db, keys);
  expect((await setRole(keys.email, true)).statusCode).toBe(200);
  const { totp } = await enrol(t.app, keys, await signedInCookie(t.app, keys));
  return { keys, userId, totp };
}

/** A sign-in through `app`: the password, then a code; the session's cookie. */
async function consoleSession(app: App, op: Operator): Promise<string> {
  const pending = await signIn(app, op.keys.email, op.keys.authSecret);
  expect(pending.json(), pending.body).toMatchObject({ twoFactorRedirect: true });
  const passed = await post(
    app,
    '/auth/two-factor/verify-totp',
    { code: op.totp.generate() },
    { cookie: cookieOf(pending.headers['set-cookie']) },
  );
  expect(passed.statusCode, passed.body).toBe(200);
  return cookieOf(passed.headers['set-cookie']);
}

const processes = () =>
  [
    ['this process', t.app],
    ['another process', other.app],
  ] as const;

/** Each session opens the console, and a member's page, in both processes (both remember it). */
async function expectOpen(cookies: Record<string, string>) {
  for (const [where, app] of processes())
    for (const [name, cookie] of Object.entries(cookies)) {
      expect((await get(app, '/api/console/me', cookie)).statusCode, `${name}, ${where}`).toBe(200);
      expect((await get(app, '/api/me', cookie)).statusCode, `${name}, ${where}`).toBe(200);
    }
}

/** No session of `cookies` opens the console in either process, from the first request on. */
async function expectConsoleClosed(cookies: Record<string, string>) {
  for (const [where, app] of processes())
    for (const [name, cookie] of Object.entries(cookies)) {
      const res = await get(app, '/api/console/me', cookie);
      expect(res.statusCode, `${name}, ${where}: ${res.body}`).not.toBe(200);
      expect(['unauthorized', 'two_factor_required'], `${name}, ${where}`).toContain(
        res.json().code,
      );
    }
}

/** Each session is signed out in both processes (the other one hears it within a second). */
async function expectSignedOut(cookies: Record<string, string>) {
  for (const [where, app] of processes())
    for (const [name, cookie] of Object.entries(cookies))
      await until(async () => (await get(app, '/api/me', cookie)).statusCode === 401, {
        timeoutMs: 1_000,
        intervalMs: 10,
        what: `${name} signed out in ${where}`,
      });
}

describe(`an operator's console sessions end with the trust they were opened on (${testDbKind})`, () => {
  it('revoking the role signs the operator out everywhere: granted again, no old session opens the console', async () => {
    const op = await newOperator();
    const sessions = {
      'a session begun here': await consoleSession(t.app, op),
      'a session begun in the other process': await consoleSession(other.app, op),
    };
    await expectOpen(sessions);
    const revoked = await setRole(op.keys.email, false);
    expect(revoked.json(), revoked.body).toMatchObject({ operator: false, changed: true });
    expect((await setRole(op.keys.email, true)).json()).toMatchObject({ changed: true });
    await expectConsoleClosed(sessions);
    await expectSignedOut(sessions);
    const audit = await sql<{ detail: { sessionsEnded?: number } }>`
      SELECT detail FROM operator_audit WHERE action = 'operator.revoke' AND target = ${op.userId}`.execute(
      t.services.database.db,
    );
    expect(audit.rows[0]?.detail.sessionsEnded).toBeGreaterThanOrEqual(2);
    // The operator signs in again, through the password and the code: the console opens.
    await expectOpen({ 'a new sign-in': await consoleSession(other.app, op) });
  });

  it('two-factor turned off and on with a new secret ends every session that passed the old one', async () => {
    const op = await newOperator();
    const changer = await consoleSession(t.app, op);
    const sessions = {
      'another session begun here': await consoleSession(t.app, op),
      'a session begun in the other process': await consoleSession(other.app, op),
    };
    await expectOpen({ ...sessions, 'the session that changes it': changer });
    const off = await post(
      t.app,
      '/auth/two-factor/disable',
      { password: op.keys.authSecret, code: op.totp.generate() },
      { cookie: changer },
    );
    expect(off.statusCode, off.body).toBe(200);
    const renewed = await enrol(t.app, op.keys, cookieOf(off.headers['set-cookie']));
    expect(renewed.totp.secret.base32).not.toBe(op.totp.secret.base32);
    await expectConsoleClosed({ ...sessions, 'the session that changed it': changer });
    await expectSignedOut(sessions);
    // The session that proved the password and the new code, and a new sign-in, open it.
    const reKeyed = { ...op, totp: renewed.totp };
    await expectOpen({
      'the session that enrolled the new secret': renewed.cookie,
      'a new sign-in': await consoleSession(other.app, reKeyed),
    });
  });

  it("the authenticator's secret replaced ends every session that passed the old one", async () => {
    const op = await newOperator();
    const sessions = {
      'a session begun here': await consoleSession(t.app, op),
      'a session begun in the other process': await consoleSession(other.app, op),
    };
    await expectOpen(sessions);
    // A re-key by any path: the stored secret changes while two-factor stays on.
    const raw = 'k'.repeat(16) + Date.now().toString(36).padStart(16, '0');
    const { secretConfig } = await t.services.auth.$context;
    const stored = await symmetricEncrypt({ key: secretConfig, data: raw });
    await sql`UPDATE "twoFactor" SET secret = ${stored} WHERE "userId" = ${op.userId}`.execute(
      t.services.database.db,
    );
    await expectConsoleClosed(sessions);
    await expectSignedOut(sessions);
    const totp = new TOTP({ secret: Secret.fromUTF8(raw), digits: 6, period: 30 });
    await expectOpen({
      'a sign-in with the new secret': await consoleSession(t.app, { ...op, totp }),
    });
  });

  it('a password change ends the other sessions and leaves the changing one without the console', async () => {
    const op = await newOperator();
    const changer = await consoleSession(t.app, op);
    const others = {
      'another session begun here': await consoleSession(t.app, op),
      'a session begun in the other process': await consoleSession(other.app, op),
    };
    await expectOpen({ ...others, 'the session that changes it': changer });
    const newAuthSecret = await deriveAuthSecret('a brand new password', op.keys.email, 1000);
    const changed = await post(
      t.app,
      '/api/account/password',
      {
        currentAuthSecret: op.keys.authSecret,
        newAuthSecret,
        wallet: {
          address: op.keys.address,
          keystore: JSON.stringify({
            ...(JSON.parse(op.keys.keystore) as object),
            id: crypto.randomUUID(),
          }),
          proof: await walletProof(t.app, op.keys, 'change-password', changer),
        },
      },
      { cookie: changer },
    );
    expect(changed.statusCode, changed.body).toBe(200);
    await expectConsoleClosed({ ...others, 'the session that changed it': changer });
    await expectSignedOut(others);
    // The changing session stays the member's (their wallet page keeps working), not the console's.
    for (const [where, app] of processes()) {
      expect((await get(app, '/api/me', changer)).statusCode, where).toBe(200);
      expect((await get(app, '/api/console/me', changer)).json().code, where).toBe(
        'two_factor_required',
      );
    }
    const renewed = { ...op, keys: { ...op.keys, authSecret: newAuthSecret } };
    await expectOpen({
      'a sign-in with the new password': await consoleSession(other.app, renewed),
    });
  });
});
