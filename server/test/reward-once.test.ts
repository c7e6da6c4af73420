// One person, one account, one reward (docs/security.md#one-reward-per-person). The sign-up takes
// no throwaway address and counts a Gmail mailbox spelled another way as the account it is.
// One reward per person, ever: deleting an account and
// joining again with the same address — or the same Gmail address written with dots or a +tag —
// earns neither the joining bonus nor the referrers' credits a second time. The attack this stops:
// one mailbox, five round trips, 500 CAPs for three referrers and 200 for itself, every time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';
import {
  cloneMemberKeys,
  joinAndConfirm,
  makeMemberKeys,
  ORIGIN,
  registerBody,
  signedInCookie,
  type MemberKeys,
} from './helpers/members';

let t: TestApp;
let base: MemberKeys;

beforeAll(async () => {
  t = await buildTestApp({
    chain: false,
    env: { PUBLIC_URL: ORIGIN, AUTH_RATE_LIMIT_PER_IP: '100000' },
  });
  base = await makeMemberKeys();
}, 60_000);
afterAll(() => t?.close());

const db = () => t.services.database.db;

async function caps(userId: string) {
  const rows = await db()
    .selectFrom('reward_ledger')
    .select(['kind', 'caps'])
    .where('user_id', '=', userId)
    .execute();
  const sum = (kind: string) =>
    rows.filter((r) => r.kind === kind).reduce((n, r) => n + Number(r.caps), 0);
  return { signup: sum('signup'), referral: sum('referral') };
}

async function codeOf(userId: string) {
  const { referral_code: code } = await db()
    .selectFrom('profiles')
    .select('referral_code')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return code!;
}

async function join(email: string, referralCode?: string) {
  const keys = await cloneMemberKeys(base, email);
  const userId = await joinAndConfirm(t.app, db(), keys, referralCode);
  return { keys, userId };
}

async function deleteAccount(keys: MemberKeys) {
  const res = await t.app.inject({
    method: 'DELETE',
    url: '/api/account',
    headers: { cookie: await signedInCookie(t.app, keys), origin: ORIGIN },
    payload: { authSecret: keys.authSecret },
  });
  expect(res.statusCode, res.body).toBe(200);
}

const checkEmail = (email: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/register/check',
    headers: { origin: ORIGIN },
    payload: { email },
  });

describe(`one account per person: the sign-up (${testDbKind})`, () => {
  it('counts a Gmail address with other dots or a +tag as the confirmed account it is, elsewhere only the address itself', async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const holder = await cloneMemberKeys(base, `kind.${tag}@gmail.com`);
    await joinAndConfirm(t.app, db(), holder);
    for (const variant of [`kind${tag}@gmail.com`, `k.ind.${tag}+second@googlemail.com`]) {
      const check = await checkEmail(variant);
      const registration = await t.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: await registerBody(t.app, await cloneMemberKeys(base, variant)),
      });
      expect(check.statusCode, variant).toBe(409);
      expect(check.json().code).toBe('email_taken');
      expect(registration.json()).toEqual(check.json());
    }
    const other = await cloneMemberKeys(base, `kind.${tag}@example.test`);
    await joinAndConfirm(t.app, db(), other);
    expect((await checkEmail(`kind${tag}@example.test`)).statusCode).toBe(200);
  });

  it('refuses a throwaway address, at the check and at the registration alike, and writes nothing', async () => {
    for (const email of ['someone@mailinator.com', 'someone@SUB.Mailinator.com']) {
      const check = await checkEmail(email);
      const keys = await cloneMemberKeys(base, email.toLowerCase());
      const registration = await t.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: await registerBody(t.app, keys),
      });
      expect(check.statusCode, email).toBe(400);
      expect(check.json()).toEqual({
        code: 'disposable_email',
        message:
          'Addresses from throwaway e-mail services cannot be used here. Please use an e-mail address you keep.',
      });
      expect(registration.json()).toEqual(check.json());
      expect(
        await db()
          .selectFrom('profiles')
          .select('id')
          .where('email', '=', email.toLowerCase())
          .execute(),
      ).toEqual([]);
    }
  });
});

describe(`one reward per person, ever (${testDbKind})`, () => {
  it('deleting and joining again through the same link credits nobody a second time', async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const top = await join(`top.${tag}@example.test`);
    const middle = await join(`middle.${tag}@example.test`, await codeOf(top.userId));
    const referrer = await join(`referrer.${tag}@example.test`, await codeOf(middle.userId));
    const code = await codeOf(referrer.userId);
    const before = {
      referrer: await caps(referrer.userId),
      middle: await caps(middle.userId),
      top: await caps(top.userId),
    };

    const first = await join(`farmed.${tag}@gmail.com`, code);
    expect(await caps(first.userId)).toEqual({ signup: 200, referral: 0 });
    const credited = {
      referrer: await caps(referrer.userId),
      middle: await caps(middle.userId),
      top: await caps(top.userId),
    };
    expect(credited.referrer.referral - before.referrer.referral).toBe(100);
    expect(credited.middle.referral - before.middle.referral).toBe(50);
    expect(credited.top.referral - before.top.referral).toBe(25);

    // The same address, then the same Gmail mailbox written two other ways.
    let previous = first;
    for (const email of [
      `farmed.${tag}@gmail.com`,
      `f.a.r.m.e.d.${tag}@gmail.com`,
      `farmed.${tag}+again@googlemail.com`,
    ]) {
      await deleteAccount(previous.keys);
      const again = await join(email, code);
      expect(await caps(again.userId), email).toEqual({ signup: 0, referral: 0 });
      expect({
        referrer: await caps(referrer.userId),
        middle: await caps(middle.userId),
        top: await caps(top.userId),
      }).toEqual(credited);
      previous = again;
    }
  });

  it('another address, or another mailbox on a domain without Gmail’s rules, still earns', async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const referrer = await join(`host.${tag}@example.test`);
    const code = await codeOf(referrer.userId);
    const first = await join(`a.b.${tag}@example.test`, code);
    // Dots matter outside Gmail: another person.
    const second = await join(`ab.${tag}@example.test`, code);
    expect(await caps(first.userId)).toEqual({ signup: 200, referral: 0 });
    expect(await caps(second.userId)).toEqual({ signup: 200, referral: 0 });
    expect((await caps(referrer.userId)).referral).toBe(200);
  });

  it('keeps no address of a deleted member: only a one-way fingerprint', async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const leaving = await join(`leaving.${tag}@example.test`);
    await deleteAccount(leaving.keys);
    const kept = await db().selectFrom('rewarded_people').selectAll().execute();
    expect(kept.length).toBeGreaterThan(0);
    expect(JSON.stringify(kept)).not.toContain(tag);
  });
});
