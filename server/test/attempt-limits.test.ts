import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ADDRESSES_FACTOR, SIGNUP_NETWORK_FACTOR } from '../src/http/guards/attempt-limits';
import {
  cloneMemberKeys,
  joinAndConfirm,
  makeMemberKeys,
  ORIGIN,
  registerBody,
  type MemberKeys,
} from './helpers/members';
import { passGate } from '../src/testing/signup-gate';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

const PER_EMAIL = 5;
const PER_IP = 20;
const WRONG = 'd'.repeat(64);
const env = {
  AUTH_RATE_LIMIT_PER_EMAIL: String(PER_EMAIL),
  AUTH_RATE_LIMIT_PER_IP: String(PER_IP),
};

let a: TestApp;
let b: TestApp;
let base: MemberKeys;

/** Each test signs in from its own address, so the per-IP limit of one does not touch another. */
const signIn = (t: TestApp, from: string, email: string, password: string) =>
  t.app.inject({
    method: 'POST',
    url: '/auth/sign-in/email',
    remoteAddress: from,
    headers: { origin: ORIGIN },
    payload: { email, password },
  });
const statuses = async (n: number, attempt: () => Promise<{ statusCode: number }>) => {
  const codes: number[] = [];
  for (let i = 0; i < n; i++) codes.push((await attempt()).statusCode);
  return codes;
};

async function confirmedMember(): Promise<MemberKeys> {
  const member = await cloneMemberKeys(base);
  await joinAndConfirm(a.app, a.services.database.db, member);
  return member;
}

beforeAll(async () => {
  a = await buildTestApp({ chain: false, env });
  b = await buildTestApp({ chain: false, env, sameDatabaseAs: a });
  base = await makeMemberKeys();
}, 120_000);
afterAll(async () => {
  await b?.close();
  await a?.close();
});

describe(`sign-in attempts per e-mail count failures only (${testDbKind})`, () => {
  it('lets a member sign in more times in a row than the limit', async () => {
    const member = await confirmedMember();
    expect(
      await statuses(PER_EMAIL + 2, () => signIn(a, '10.0.0.1', member.email, member.authSecret)),
    ).toEqual(Array(PER_EMAIL + 2).fill(200));
  });

  it('refuses even the right secret once the wrong ones reached the limit', async () => {
    const member = await confirmedMember();
    expect(await statuses(PER_EMAIL, () => signIn(a, '10.0.0.2', member.email, WRONG))).toEqual(
      Array(PER_EMAIL).fill(401),
    );
    const blocked = await signIn(a, '10.0.0.2', member.email, member.authSecret);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({
      code: 'rate_limited',
      message: 'Too many attempts. Please try again in 10 minutes.',
    });
  });

  it('starts counting again after a successful sign-in', async () => {
    const member = await confirmedMember();
    const wrong = () => signIn(a, '10.0.0.3', member.email, WRONG);
    expect(await statuses(PER_EMAIL - 1, wrong)).toEqual(Array(PER_EMAIL - 1).fill(401));
    expect((await signIn(a, '10.0.0.3', member.email, member.authSecret)).statusCode).toBe(200);
    expect(await statuses(PER_EMAIL + 1, wrong)).toEqual([...Array(PER_EMAIL).fill(401), 429]);
  });

  it('still counts every sign-in per IP, successful or not', async () => {
    const member = await confirmedMember();
    const codes = await statuses(PER_IP + 1, () =>
      signIn(a, '10.0.0.4', member.email, member.authSecret),
    );
    expect(codes).toEqual([...Array(PER_IP).fill(200), 429]);
  });
});

describe(`one IPv6 network is one client (${testDbKind})`, () => {
  // An IPv6 /64 is what one home, phone or server is given: rotating through its 2^64 addresses
  // must not give each one a fresh allowance.
  it('counts every address of one /64 together; another /64 has its own allowance', async () => {
    const member = await confirmedMember();
    const inNetwork = (i: number) => `2001:db8:77:1:${(i + 1).toString(16)}::${i.toString(16)}`;
    const codes = await statuses(PER_IP + 1, async () =>
      signIn(a, inNetwork(Math.floor(Math.random() * 60_000)), member.email, member.authSecret),
    );
    expect(codes).toEqual([...Array(PER_IP).fill(200), 429]);
    // The same /64 written in full, and an IPv4-mapped address of another client, apart.
    expect(
      (await signIn(a, '2001:0db8:0077:0001:ffff:ffff:ffff:ffff', member.email, member.authSecret))
        .statusCode,
    ).toBe(429);
    expect((await signIn(a, '2001:db8:77:2::1', member.email, member.authSecret)).statusCode).toBe(
      200,
    );
    expect((await signIn(a, '::ffff:10.0.9.9', member.email, member.authSecret)).statusCode).toBe(
      200,
    );
  });

  it('counts an IPv4-mapped address as its IPv4 address', async () => {
    const member = await confirmedMember();
    const codes = await statuses(
      PER_IP,
      (() => {
        let i = 0;
        return () =>
          signIn(a, i++ % 2 ? '10.0.9.10' : '::ffff:10.0.9.10', member.email, member.authSecret);
      })(),
    );
    expect(codes).toEqual(Array(PER_IP).fill(200));
    expect((await signIn(a, '10.0.9.10', member.email, member.authSecret)).statusCode).toBe(429);
  });
});

describe(`a stranger cannot lock a member out (${testDbKind})`, () => {
  it('counts a stranger’s wrong secrets against the stranger’s address; the member signs in from theirs', async () => {
    const member = await confirmedMember();
    expect(await statuses(PER_EMAIL + 1, () => signIn(a, '10.9.0.1', member.email, WRONG))).toEqual(
      [...Array(PER_EMAIL).fill(401), 429],
    );
    expect((await signIn(a, '10.9.0.2', member.email, member.authSecret)).statusCode).toBe(200);
  });

  it('still stops guessing spread over many addresses at the all-addresses ceiling', async () => {
    const member = await confirmedMember();
    const ceiling = PER_EMAIL * ALL_ADDRESSES_FACTOR;
    const codes: number[] = [];
    for (let i = 0; i < ceiling + 1; i++)
      codes.push(
        (await signIn(a, `10.8.${Math.floor(i / PER_EMAIL)}.${i % PER_EMAIL}`, member.email, WRONG))
          .statusCode,
      );
    expect(codes.slice(0, ceiling).every((c) => c === 401)).toBe(true);
    expect(codes[ceiling]).toBe(429);
    expect((await signIn(a, '10.8.200.1', member.email, member.authSecret)).statusCode).toBe(429);
  });

  it('lets a member register when a stranger filled the sign-up limit for that e-mail from elsewhere', async () => {
    const member = await cloneMemberKeys(base);
    const bogus = {
      email: member.email,
      authSecret: member.authSecret,
      wallet: {
        address: member.address,
        keystore: member.keystore,
        proof: { nonce: '0'.repeat(32), signature: `0x${'1'.repeat(130)}` },
      },
    };
    for (let i = 0; i < PER_EMAIL + 1; i++)
      await a.app.inject({
        method: 'POST',
        url: '/api/register',
        remoteAddress: '10.7.0.1',
        payload: bogus,
      });
    const body = await registerBody(a.app, member);
    expect(
      (
        await a.app.inject({
          method: 'POST',
          url: '/api/register',
          remoteAddress: '10.7.0.2',
          payload: body,
        })
      ).statusCode,
    ).toBe(201);
  });
});

describe(`sign-ups per wider network (${testDbKind})`, () => {
  // A farm behind one router or one IPv6 site rotates addresses; each address has its own
  // allowance, and the network together has SIGNUP_NETWORK_FACTOR of them.
  const bogusSignUp = (remoteAddress: string) =>
    a.app.inject({
      method: 'POST',
      url: '/api/register',
      remoteAddress,
      payload: {
        email: `net-${crypto.randomUUID()}@example.test`,
        authSecret: WRONG,
        wallet: {
          address: base.address,
          keystore: base.keystore,
          proof: { nonce: '0'.repeat(32), signature: `0x${'1'.repeat(130)}` },
        },
      },
    });
  for (const [network, address, other] of [
    ['IPv4 /24', (i: number) => `198.51.77.${i + 1}`, '198.51.78.1'],
    ['IPv6 /48', (i: number) => `2001:db8:77:${i.toString(16)}::1`, '2001:db8:78::1'],
  ] as const)
    it(`counts every sign-up from one ${network} together, at ${SIGNUP_NETWORK_FACTOR} times one client's allowance`, async () => {
      for (let client = 0; client < SIGNUP_NETWORK_FACTOR; client++)
        expect(await statuses(PER_IP, () => bogusSignUp(address(client)))).not.toContain(429);
      expect((await bogusSignUp(address(SIGNUP_NETWORK_FACTOR))).statusCode).toBe(429);
      expect((await bogusSignUp(other)).statusCode).not.toBe(429);
    });
});

describe(`two server instances on one database (${testDbKind})`, () => {
  it('share the sign-in limit', async () => {
    const member = await confirmedMember();
    const codes = [];
    for (let i = 0; i < PER_EMAIL; i++)
      codes.push((await signIn(i % 2 ? b : a, '10.0.0.5', member.email, WRONG)).statusCode);
    expect(codes).toEqual(Array(PER_EMAIL).fill(401));
    expect((await signIn(a, '10.0.0.5', member.email, member.authSecret)).statusCode).toBe(429);
    expect((await signIn(b, '10.0.0.5', member.email, member.authSecret)).statusCode).toBe(429);
  });

  it('let no more wrong secrets through than the limit, however many arrive at once', async () => {
    const member = await confirmedMember();
    const all = await Promise.all(
      Array.from({ length: 2 * PER_EMAIL }, (_, i) =>
        signIn(i % 2 ? b : a, '10.0.0.7', member.email, WRONG),
      ),
    );
    expect(all.map((r) => r.statusCode).sort()).toEqual([
      ...Array(PER_EMAIL).fill(401),
      ...Array(PER_EMAIL).fill(429),
    ]);
  });

  it('share the limit of mail-sending requests, which counts every request', async () => {
    const member = await confirmedMember();
    const ask = async (t: TestApp) =>
      t.app.inject({
        method: 'POST',
        url: '/auth/request-password-reset',
        remoteAddress: '10.0.0.6',
        headers: { origin: ORIGIN },
        payload: {
          email: member.email,
          redirectTo: '/reset-password',
          gate: await passGate(t.app, 'reset'),
        },
      });
    const codes = [];
    for (let i = 0; i <= PER_EMAIL; i++) codes.push((await ask(i % 2 ? b : a)).statusCode);
    expect(codes).toEqual([...Array(PER_EMAIL).fill(200), 429]);
  });
});
