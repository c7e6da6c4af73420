// The two checks a sign-up makes before the wallet is built: whether the referral link's
// code names a member (asked when the link is opened) and whether the e-mail is free. Both are open
// to strangers, so each is tried as a stranger would: no session, someone else's session, malformed
// and oversized input, and many requests from one address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cloneMemberKeys,
  joinAndConfirm,
  makeMemberKeys,
  ORIGIN,
  registerBody,
  signedInCookie,
  type MemberKeys,
} from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

const PER_IP = 8;
const PER_EMAIL = 3;

let t: TestApp;
let referrer: MemberKeys;
let code: string;
let cookie: string;

const checkCode = (value: string, from = '10.1.0.1', headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'GET',
    url: `/api/referrals/codes/${encodeURIComponent(value)}`,
    remoteAddress: from,
    headers,
  });
const checkEmail = (
  payload: unknown,
  from: string,
  headers: Record<string, string> = { origin: ORIGIN },
) =>
  t.app.inject({
    method: 'POST',
    url: '/api/register/check',
    remoteAddress: from,
    headers,
    payload: payload as object,
  });

beforeAll(async () => {
  t = await buildTestApp({
    chain: false,
    env: {
      PUBLIC_URL: ORIGIN,
      AUTH_RATE_LIMIT_PER_IP: String(PER_IP),
      AUTH_RATE_LIMIT_PER_EMAIL: String(PER_EMAIL),
    },
  });
  referrer = await makeMemberKeys();
  const id = await joinAndConfirm(t.app, t.services.database.db, referrer);
  code = (
    await t.services.database.db
      .selectFrom('profiles')
      .select('referral_code')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).referral_code!;
  cookie = await signedInCookie(t.app, referrer);
}, 120_000);
afterAll(() => t?.close());

describe(`GET /api/referrals/codes/:code (${testDbKind})`, () => {
  it("says valid for a member's code, in any case, with the inviter's first name and nothing else", async () => {
    for (const asked of [code, code.toLowerCase()]) {
      const res = await checkCode(asked, '10.1.1.1');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ valid: true, inviter: 'Ada' });
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('names the inviter by their first word only, and by nothing when they gave no name', async () => {
    const db = t.services.database.db;
    const setName = (full_name: string) =>
      db.updateTable('profiles').set({ full_name }).where('referral_code', '=', code).execute();
    try {
      for (const [name, shown] of [
        ['  Zoë   Ann Smith ', 'Zoë'],
        ['', null],
        ['<b>Eve</b> x', '<b>Eve</b>'], // said as text by the page, never as markup
      ] as const) {
        await setName(name);
        expect((await checkCode(code, '10.1.6.1')).json()).toEqual({ valid: true, inviter: shown });
      }
    } finally {
      await setName('Ada Lovelace');
    }
  });

  it.each([
    ['an unknown code', 'NOPE2345'],
    ['a malformed code', 'AB-12'],
    ['the default code (no referral)', 'TS0001'],
  ])('says invalid for %s', async (_what, asked) => {
    const res = await checkCode(asked, '10.1.2.1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ valid: false });
  });

  it('refuses oversized and NUL-carrying input without looking it up', async () => {
    for (const asked of ['A'.repeat(65), 'AB\u0000CD']) {
      const res = await checkCode(asked, '10.1.3.1');
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json()).sort()).toEqual(['code', 'message']);
    }
  });

  it("answers a signed-in member exactly as a stranger: nothing about the code's owner", async () => {
    const stranger = await checkCode(code, '10.1.4.1');
    const member = await checkCode(code, '10.1.4.1', { cookie });
    expect(member.statusCode).toBe(200);
    expect(member.body).toBe(stranger.body);
    expect(member.body).not.toContain(referrer.email);
    expect(member.body).not.toContain('Lovelace');
  });

  it(`answers ${PER_IP} asks per client address and window, valid or not, then 429 (guessing in bulk)`, async () => {
    const codes: number[] = [];
    for (let i = 0; i < PER_IP; i++)
      codes.push((await checkCode(i % 2 ? code : `GUESS${i}AB`, '10.1.5.1')).statusCode);
    expect(codes).toEqual(Array(PER_IP).fill(200));
    for (const asked of [code, 'GUESSXAB']) {
      const blocked = await checkCode(asked, '10.1.5.1');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual({
        code: 'rate_limited',
        message: 'Too many attempts. Please try again in 10 minutes.',
      });
    }
    // Another address is not held up by this one.
    expect((await checkCode(code, '10.1.5.2')).json()).toEqual({ valid: true, inviter: 'Ada' });
  });
});

describe(`POST /api/register/check (${testDbKind})`, () => {
  it('says a new address can sign up, and writes nothing', async () => {
    const email = `fresh.${Date.now()}@example.test`;
    const res = await checkEmail({ email }, '10.2.1.1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    const db = t.services.database.db;
    expect(
      await db.selectFrom('profiles').select('id').where('email', '=', email).execute(),
    ).toEqual([]);
    expect(
      await db.selectFrom('mail_outbox').select('id').where('to_address', '=', email).execute(),
    ).toEqual([]);
  });

  it("answers a confirmed account's address exactly as the registration does (no more than it already says)", async () => {
    const check = await checkEmail({ email: referrer.email.toUpperCase() }, '10.2.2.1');
    const spare = await cloneMemberKeys(referrer, referrer.email);
    const registration = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      remoteAddress: '10.2.2.2',
      payload: await registerBody(t.app, spare),
    });
    expect(check.statusCode).toBe(409);
    expect(registration.statusCode).toBe(409);
    expect(check.json()).toEqual(registration.json());
    expect(check.json().code).toBe('email_taken');
  });

  it('lets an unconfirmed sign-up be replaced, as the registration does', async () => {
    const pending = await cloneMemberKeys(referrer);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/register',
          remoteAddress: '10.2.3.2',
          payload: await registerBody(t.app, pending),
        })
      ).statusCode,
    ).toBe(201);
    expect((await checkEmail({ email: pending.email }, '10.2.3.1')).json()).toEqual({ ok: true });
  });

  it.each([
    ['no body', undefined],
    ['not an e-mail', { email: 'not-an-email' }],
    ['an oversized e-mail', { email: `${'a'.repeat(300)}@example.test` }],
    ['another type', { email: ['a@example.test'] }],
  ])('refuses %s with 400', async (_what, payload) => {
    const res = await checkEmail(payload, '10.2.4.1');
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json()).sort()).toEqual(['code', 'message']);
  });

  it("refuses a cookie-carrying call from another site (a member's browser made to ask)", async () => {
    const res = await checkEmail({ email: referrer.email }, '10.2.5.1', {
      origin: 'https://evil.example',
      cookie,
    });
    expect(res.statusCode).toBe(403);
  });

  it(`asks about one address ${PER_EMAIL} times per client address, and ${PER_IP} addresses in all, then 429`, async () => {
    const same = [];
    for (let i = 0; i <= PER_EMAIL; i++)
      same.push((await checkEmail({ email: referrer.email }, '10.2.6.1')).statusCode);
    expect(same).toEqual([...Array(PER_EMAIL).fill(409), 429]);
    const many = [];
    for (let i = 0; i <= PER_IP; i++)
      many.push((await checkEmail({ email: `probe.${i}@example.test` }, '10.2.6.2')).statusCode);
    expect(many).toEqual([...Array(PER_IP).fill(200), 429]);
  });
});
