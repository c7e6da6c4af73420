// Every code a signed-in member sends (turning two-factor off, finishing enrolment, a code or backup
// code checked with a session) counts toward the same lock as the codes at sign-in: 10 wrong in a
// row lock the second factor for 15 minutes, on every route that takes a code (docs/security.md).
import { sql } from 'kysely';
import { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  // Every request comes from one address: the per-address limit must not be what stops the codes.
  t = await buildTestApp({
    chain: false,
    env: { AUTH_RATE_LIMIT_PER_IP: '100000', AUTH_RATE_LIMIT_PER_EMAIL: '1000' },
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
const wrongCode = (totp: TOTP) =>
  String((Number(totp.generate()) + 1) % 1_000_000).padStart(6, '0');

interface Enrolled {
  keys: MemberKeys;
  userId: string;
  totp: TOTP;
  backupCodes: string[];
  cookie: string;
}

/** A confirmed member with two-factor sign-in on, and a session. */
async function enrolled(): Promise<Enrolled> {
  const keys = await cloneMemberKeys(base);
  const userId = await joinAndConfirm(t.app, t.services.database.db, keys);
  const cookie = await signedInCookie(t.app, keys);
  const enabled = await post('/auth/two-factor/enable', { password: keys.authSecret }, cookie);
  expect(enabled.statusCode, enabled.body).toBe(200);
  const { totpURI, backupCodes } = enabled.json() as { totpURI: string; backupCodes: string[] };
  const secret = new URL(totpURI).searchParams.get('secret')!;
  const totp = new TOTP({ secret, digits: 6, period: 30 });
  const verified = await post('/auth/two-factor/verify-totp', { code: totp.generate() }, cookie);
  expect(verified.statusCode, verified.body).toBe(200);
  return { keys, userId, totp, backupCodes, cookie: cookieOf(verified.headers['set-cookie']) };
}

const disable = (m: Enrolled, code: string) =>
  post('/auth/two-factor/disable', { password: m.keys.authSecret, code }, m.cookie);

/** The code step of a new sign-in, with a right code. */
async function signInWithCode(m: Enrolled) {
  const pending = await signIn(t.app, m.keys.email, m.keys.authSecret);
  expect(pending.json(), pending.body).toMatchObject({ twoFactorRedirect: true });
  return post(
    '/auth/two-factor/verify-totp',
    { code: m.totp.generate() },
    cookieOf(pending.headers['set-cookie']),
  );
}

const twoFactorOn = async (userId: string) =>
  (
    await sql<{
      on: boolean | null;
    }>`SELECT "twoFactorEnabled" AS on FROM "user" WHERE id = ${userId}`.execute(
      t.services.database.db,
    )
  ).rows[0]?.on === true;

/** The lock's window ends (the test does not wait 15 minutes). */
const windowEnds = (userId: string) =>
  sql`UPDATE "twoFactor" SET "lockedUntil" = now() - interval '1 second' WHERE "userId" = ${userId}`.execute(
    t.services.database.db,
  );

function expectLocked(res: { statusCode: number; body: string; json: () => unknown }) {
  expect(res.statusCode, res.body).toBe(429);
  expect(res.json()).toMatchObject({ code: 'two_factor_locked' });
}

describe(`wrong codes from a signed-in member lock the second factor as at sign-in (${testDbKind})`, () => {
  it('10 wrong codes to turn two-factor off lock it: the right code is refused there and at sign-in until the window ends', async () => {
    const m = await enrolled();
    for (let i = 0; i < 10; i++) {
      const res = await disable(m, wrongCode(m.totp));
      expect(res.statusCode, `wrong code ${i + 1}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_two_factor_code' });
    }
    expectLocked(await disable(m, wrongCode(m.totp)));
    expectLocked(await disable(m, m.totp.generate()));
    expectLocked(await disable(m, m.backupCodes[0]!));
    expectLocked(await signInWithCode(m));
    expectLocked(await post('/auth/two-factor/verify-totp', { code: m.totp.generate() }, m.cookie));
    expect(await twoFactorOn(m.userId)).toBe(true);

    await windowEnds(m.userId);
    const off = await disable(m, m.totp.generate());
    expect(off.statusCode, off.body).toBe(200);
    expect(await twoFactorOn(m.userId)).toBe(false);
  });

  it('wrong codes at sign-in and to turn it off add up to one count', async () => {
    const m = await enrolled();
    const pending = await signIn(t.app, m.keys.email, m.keys.authSecret);
    const pendingCookie = cookieOf(pending.headers['set-cookie']);
    for (let i = 0; i < 5; i++)
      expect(
        (await post('/auth/two-factor/verify-totp', { code: wrongCode(m.totp) }, pendingCookie))
          .statusCode,
      ).toBe(401);
    for (let i = 0; i < 5; i++) expect((await disable(m, wrongCode(m.totp))).statusCode).toBe(400);
    expectLocked(await disable(m, m.totp.generate()));
    expectLocked(await signInWithCode(m));
  });

  it('wrong codes and backup codes checked with a session count too', async () => {
    const m = await enrolled();
    for (let i = 0; i < 5; i++)
      expect(
        (await post('/auth/two-factor/verify-totp', { code: wrongCode(m.totp) }, m.cookie))
          .statusCode,
      ).toBe(401);
    for (let i = 0; i < 5; i++)
      expect(
        (await post('/auth/two-factor/verify-backup-code', { code: 'abcde-fghij' }, m.cookie))
          .statusCode,
      ).toBe(401);
    expectLocked(
      await post('/auth/two-factor/verify-backup-code', { code: m.backupCodes[0] }, m.cookie),
    );
    expectLocked(await signInWithCode(m));
  });

  it('wrong codes while finishing enrolment count, and lock the enrolment', async () => {
    const keys = await cloneMemberKeys(base);
    await joinAndConfirm(t.app, t.services.database.db, keys);
    const cookie = await signedInCookie(t.app, keys);
    const enabled = await post('/auth/two-factor/enable', { password: keys.authSecret }, cookie);
    const secret = new URL(enabled.json().totpURI as string).searchParams.get('secret')!;
    const totp = new TOTP({ secret, digits: 6, period: 30 });
    for (let i = 0; i < 10; i++)
      expect(
        (await post('/auth/two-factor/verify-totp', { code: wrongCode(totp) }, cookie)).statusCode,
      ).toBe(401);
    expectLocked(await post('/auth/two-factor/verify-totp', { code: totp.generate() }, cookie));
  });

  it('counts consecutive failures only: a right code starts the count again', async () => {
    const m = await enrolled();
    for (let i = 0; i < 9; i++) expect((await disable(m, wrongCode(m.totp))).statusCode).toBe(400);
    const right = await post('/auth/two-factor/verify-totp', { code: m.totp.generate() }, m.cookie);
    expect(right.statusCode, right.body).toBe(200);
    for (let i = 0; i < 9; i++) expect((await disable(m, wrongCode(m.totp))).statusCode).toBe(400);
    const off = await disable(m, m.totp.generate());
    expect(off.statusCode, off.body).toBe(200);
  });

  it('lets no more than 10 wrong codes be checked, however many arrive at once', async () => {
    const m = await enrolled();
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => disable(m, wrongCode(m.totp))),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s !== 400 && s !== 429)).toEqual([]);
    expectLocked(await disable(m, m.totp.generate()));
  });

  it('a session of another member, or none, cannot spend or clear a member’s count', async () => {
    const m = await enrolled();
    const stranger = await enrolled();
    for (let i = 0; i < 10; i++) await disable(stranger, wrongCode(m.totp));
    expectLocked(await disable(stranger, stranger.totp.generate()));
    // The stranger's wrong codes locked only the stranger.
    const own = await post('/auth/two-factor/verify-totp', { code: m.totp.generate() }, m.cookie);
    expect(own.statusCode, own.body).toBe(200);
    expect(
      (await post('/auth/two-factor/disable', { password: m.keys.authSecret, code: '123456' }))
        .statusCode,
    ).toBe(401);
  });
});
