// The sign-up gate (docs/security.md#the-sign-up-gate), tried as a stranger would: no solution, a
// forged one, one used twice (one after the other, at once, and in two server processes), one
// solved for another form, an expired one, malformed and oversized ones, and many challenges from
// one address; then the difficulty a busy network earns (an IPv4 /24, an IPv6 /48), for the
// registration, the resend and the reset alike, and never for another network.
import type { GateChallenge, GatePass } from '@crw/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { gateChallengeFor, passGate, solveGate } from '../src/testing/signup-gate';
import {
  cloneMemberKeys,
  makeMemberKeys,
  ORIGIN,
  registerBody,
  type MemberKeys,
} from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

const HOURLY = 2;
const BASE_MAX = 100;
const RAISED_MAX = 400;

const env = {
  PUBLIC_URL: ORIGIN,
  AUTH_RATE_LIMIT_PER_IP: '100000',
  AUTH_RATE_LIMIT_PER_EMAIL: '100000',
  SIGNUP_GATE_NETWORK_HOURLY_SIGNUPS: String(HOURLY),
  SIGNUP_GATE_BASE_MAX_NUMBER: String(BASE_MAX),
  // Small enough to solve here; the real figure is measured by bench/gate.ts.
  SIGNUP_GATE_RAISED_MAX_NUMBER: String(RAISED_MAX),
};

let t: TestApp;
let base: MemberKeys;

beforeAll(async () => {
  t = await buildTestApp({ chain: false, env });
  base = await makeMemberKeys();
}, 120_000);
afterAll(() => t?.close());

const db = () => t.services.database.db;

/** POST /api/register from `from`, with `gate` as the body's gate (undefined: none at all). */
async function register(keys: MemberKeys, from: string, gate: GatePass | undefined, app = t.app) {
  const { gate: _ignored, ...body } = await registerBody(app, keys);
  return app.inject({
    method: 'POST',
    url: '/api/register',
    remoteAddress: from,
    payload: gate ? { ...body, gate } : body,
  });
}

const EMAIL_ROUTES = {
  reset: {
    url: '/auth/request-password-reset',
    body: (email: string) => ({ email, redirectTo: '/reset-password' }),
  },
  resend: {
    url: '/auth/send-verification-email',
    body: (email: string) => ({ email, callbackURL: '/?confirmed=true' }),
  },
} as const;

/** A reset request or a resend for `email` from `from`, with `gate` (undefined: none). */
function mailRequest(
  form: keyof typeof EMAIL_ROUTES,
  email: string,
  gate: unknown,
  from = '127.0.0.1',
) {
  const route = EMAIL_ROUTES[form];
  return t.app.inject({
    method: 'POST',
    url: route.url,
    remoteAddress: from,
    headers: { origin: ORIGIN },
    payload: { ...route.body(email), ...(gate === undefined ? {} : { gate }) },
  });
}

const mailsTo = async (email: string) =>
  Number(
    (
      await db()
        .selectFrom('mail_outbox')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('to_address', '=', email)
        .executeTakeFirstOrThrow()
    ).n,
  );
const usersWith = async (email: string) =>
  (
    await sql<{ n: number }>`SELECT count(*)::int AS n FROM "user" WHERE email = ${email}`.execute(
      db(),
    )
  ).rows[0]!.n;

/** A registered (unconfirmed) member, for the mail routes: they mail only known addresses. */
let known: MemberKeys;
beforeAll(async () => {
  known = await cloneMemberKeys(base);
  expect((await register(known, '192.0.2.1', await passGate(t.app, 'register'))).statusCode).toBe(
    201,
  );
});

describe(`the challenge (${testDbKind})`, () => {
  it('is signed, names its form and difficulty, expires in 5 minutes, and is never cached', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/signup-gate/challenge?form=register',
      remoteAddress: '198.18.0.1',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { parameters, signature } = res.json() as GateChallenge;
    expect(parameters).toMatchObject({
      algorithm: 'PBKDF2/SHA-256',
      cost: 1000,
      keyLength: 32,
      data: { form: 'register', difficulty: 'base' },
    });
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    const inSeconds = parameters.expiresAt - Date.now() / 1000;
    expect(inSeconds).toBeGreaterThan(290);
    expect(inSeconds).toBeLessThanOrEqual(300);
  });

  it('at the base difficulty, the answer lies between half the base maximum and the maximum', async () => {
    for (let i = 0; i < 5; i++) {
      const { solution } = await passGate(t.app, 'register', '198.18.0.2');
      expect(solution.counter).toBeGreaterThanOrEqual(BASE_MAX / 2);
      expect(solution.counter).toBeLessThanOrEqual(BASE_MAX);
    }
  });

  it('is refused for an unknown form', async () => {
    for (const url of [
      '/api/signup-gate/challenge',
      '/api/signup-gate/challenge?form=sign-in',
      '/api/signup-gate/challenge?form=register&form=reset',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().code).toBe('invalid_request');
    }
  });

  it('writes nothing: issuing twenty leaves the table as it was', async () => {
    const before = await db()
      .selectFrom('signup_gate_uses')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    await Promise.all(
      Array.from({ length: 20 }, () => gateChallengeFor(t.app, 'reset', '198.18.0.3')),
    );
    const after = await db()
      .selectFrom('signup_gate_uses')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});

describe(`a registration (${testDbKind})`, () => {
  it('without a solution: 400 gate_failed with a plain message, and no account', async () => {
    const keys = await cloneMemberKeys(base);
    const res = await register(keys, '198.18.1.1', undefined);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'gate_failed',
      message: 'The security check did not finish. Please try again.',
    });
    expect(await usersWith(keys.email)).toBe(0);
  });

  it('with a forged solution (a changed signature, difficulty, form or answer): 400 gate_failed', async () => {
    const good = await passGate(t.app, 'register', '198.18.12.2');
    const { parameters, signature } = good.challenge;
    const flip = (hex: string) => (hex[0] === 'a' ? 'b' : 'a') + hex.slice(1);
    const forgeries: Array<[string, GatePass]> = [
      ['signature', { ...good, challenge: { parameters, signature: flip(signature) } }],
      [
        'form in the data',
        {
          ...good,
          challenge: {
            signature,
            parameters: { ...parameters, data: { ...parameters.data, form: 'reset' } },
          },
        },
      ],
      [
        'expiry pushed back',
        {
          ...good,
          challenge: {
            signature,
            parameters: { ...parameters, expiresAt: parameters.expiresAt + 3600 },
          },
        },
      ],
      [
        'cost lowered',
        { ...good, challenge: { signature, parameters: { ...parameters, cost: 1 } } },
      ],
      [
        'answer',
        { ...good, solution: { ...good.solution, derivedKey: flip(good.solution.derivedKey) } },
      ],
    ];
    for (const [what, forged] of forgeries) {
      const keys = await cloneMemberKeys(base);
      const res = await register(keys, '198.18.12.2', forged);
      expect(res.statusCode, what).toBe(400);
      expect(res.json().code, what).toBe('gate_failed');
      expect(await usersWith(keys.email)).toBe(0);
    }
    // The genuine one still works: no forgery used it up.
    expect((await register(await cloneMemberKeys(base), '198.18.12.2', good)).statusCode).toBe(201);
  });

  it('with a solution used before: 400 gate_used, the second time and every time after', async () => {
    const gate = await passGate(t.app, 'register', '198.18.13.3');
    expect((await register(await cloneMemberKeys(base), '198.18.13.3', gate)).statusCode).toBe(201);
    for (let i = 0; i < 2; i++) {
      const keys = await cloneMemberKeys(base);
      const again = await register(keys, '198.18.13.3', gate);
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({
        code: 'gate_used',
        message: 'This security check was already used. Please try again.',
      });
      expect(await usersWith(keys.email)).toBe(0);
    }
  });

  it('with one solution sent by five requests at once: exactly one registers', async () => {
    const gate = await passGate(t.app, 'register', '198.18.14.4');
    const members = await Promise.all(Array.from({ length: 5 }, () => cloneMemberKeys(base)));
    const bodies = await Promise.all(members.map((m) => registerBody(t.app, m)));
    const answers = await Promise.all(
      bodies.map((body) =>
        t.app.inject({
          method: 'POST',
          url: '/api/register',
          remoteAddress: '198.18.14.4',
          payload: { ...body, gate },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 400, 400, 400, 400]);
    expect(answers.filter((a) => a.statusCode === 400).map((a) => a.json().code)).toEqual([
      'gate_used',
      'gate_used',
      'gate_used',
      'gate_used',
    ]);
  });

  it('with a solution made for another form: 400 gate_failed, and it still works for its own', async () => {
    const forReset = await passGate(t.app, 'reset', '198.18.15.5');
    const keys = await cloneMemberKeys(base);
    const res = await register(keys, '198.18.15.5', forReset);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('gate_failed');
    expect(await usersWith(keys.email)).toBe(0);
    expect((await mailRequest('reset', known.email, forReset)).statusCode).toBe(200);
  });

  it('with an expired solution: 400 gate_expired', async () => {
    const gate = await passGate(t.app, 'register', '198.18.16.6');
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 301_000 });
    try {
      const keys = await cloneMemberKeys(base);
      const res = await register(keys, '198.18.16.6', gate);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        code: 'gate_expired',
        message: 'The security check ran out of time. Please try again.',
      });
      expect(await usersWith(keys.email)).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([
    ['a string', 'x'.repeat(50_000)],
    ['a number', 42],
    ['an array', [1, 2, 3]],
    ['a negative counter', { counter: -1 }],
    ['a counter past 2^31', { counter: 2 ** 31 }],
    ['a fractional counter', { counter: 1.5 }],
    ['a key that is not hex', { derivedKey: 'z'.repeat(64) }],
    ['a NUL in the key', { derivedKey: `${'a'.repeat(63)}\u0000` }],
    ['a huge key', { derivedKey: 'a'.repeat(90_000) }],
  ])('with %s in the gate field: refused with a 4xx, nothing written', async (_what, value) => {
    const good = await passGate(t.app, 'register', '198.18.17.7');
    const gate =
      typeof value === 'object' && !Array.isArray(value)
        ? { ...good, solution: { ...good.solution, ...value } }
        : value;
    const keys = await cloneMemberKeys(base);
    const { gate: _ignored, ...body } = await registerBody(t.app, keys);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      remoteAddress: '198.18.17.7',
      payload: { ...body, gate },
    });
    expect([400, 413]).toContain(res.statusCode);
    expect(await usersWith(keys.email)).toBe(0);
    const used = await db()
      .selectFrom('signup_gate_uses')
      .select('nonce')
      .where('nonce', '=', good.challenge.parameters.nonce)
      .execute();
    expect(used).toEqual([]);
  });
});

describe(`the resend and the reset request (${testDbKind})`, () => {
  it.each(['reset', 'resend'] as const)(
    '%s: no solution, a forged one, another form’s, a used one are refused and mail nothing; a fresh one mails',
    async (form) => {
      const other = form === 'reset' ? 'resend' : 'reset';
      const before = await mailsTo(known.email);
      const good = await passGate(t.app, form);
      const refusals: Array<[string, unknown, string]> = [
        ['none', undefined, 'gate_failed'],
        [
          'forged',
          { ...good, challenge: { ...good.challenge, signature: 'f'.repeat(64) } },
          'gate_failed',
        ],
        ['another form', await passGate(t.app, other), 'gate_failed'],
        ['registration’s', await passGate(t.app, 'register'), 'gate_failed'],
      ];
      for (const [what, gate, code] of refusals) {
        const res = await mailRequest(form, known.email, gate);
        expect(res.statusCode, what).toBe(400);
        expect(res.json().code, what).toBe(code);
      }
      expect(await mailsTo(known.email)).toBe(before);
      expect((await mailRequest(form, known.email, good)).statusCode).toBe(200);
      expect(await mailsTo(known.email)).toBe(before + 1);
      const replay = await mailRequest(form, known.email, good);
      expect(replay.statusCode).toBe(400);
      expect(replay.json().code).toBe('gate_used');
      expect(await mailsTo(known.email)).toBe(before + 1);
    },
  );
});

describe(`a busy network earns the raised difficulty (${testDbKind})`, () => {
  const difficulty = async (form: 'register' | 'resend' | 'reset', from: string) =>
    (await gateChallengeFor(t.app, form, from)).parameters.data.difficulty;

  it.each([
    ['an IPv4 /24', ['203.0.113.10', '203.0.113.200'], '203.0.113.77', '203.0.114.77'],
    [
      'an IPv6 /48',
      ['2001:db8:aaaa:1::1', '2001:db8:aaaa:2::5'],
      '2001:db8:aaaa:ffff::9',
      '2001:db8:aaab::1',
    ],
  ])(
    '%s: after its hourly sign-ups, the next challenges of every form are raised; another network stays at the base',
    async (_what, registeringFrom, sameNetwork, otherNetwork) => {
      // A solution taken at the base before the network fills up, used after.
      const early = await passGate(t.app, 'register', sameNetwork);
      for (const from of registeringFrom) {
        expect(await difficulty('register', sameNetwork)).toBe('base');
        const gate = await passGate(t.app, 'register', from);
        expect((await register(await cloneMemberKeys(base), from, gate)).statusCode).toBe(201);
      }
      for (const form of ['register', 'resend', 'reset'] as const) {
        expect(await difficulty(form, sameNetwork), form).toBe('raised');
        expect(await difficulty(form, otherNetwork), form).toBe('base');
      }
      // The base solution taken earlier no longer does for this network.
      const late = await register(await cloneMemberKeys(base), sameNetwork, early);
      expect(late.statusCode).toBe(400);
      expect(late.json().code).toBe('gate_failed');
      // The raised challenge asks for more work than any base one: its answer is past the base maximum.
      const raised = await passGate(t.app, 'reset', sameNetwork);
      expect(raised.challenge.parameters.data.difficulty).toBe('raised');
      expect(raised.solution.counter).toBeGreaterThanOrEqual(RAISED_MAX / 2);
      expect(raised.solution.counter).toBeGreaterThan(BASE_MAX);
      expect((await mailRequest('reset', known.email, raised, sameNetwork)).statusCode).toBe(200);
      // Registering with a raised solution works, and the row keeps only the network.
      const keys = await cloneMemberKeys(base);
      const registered = await register(
        keys,
        sameNetwork,
        await passGate(t.app, 'register', sameNetwork),
      );
      expect(registered.statusCode).toBe(201);
      expect(await difficulty('resend', otherNetwork)).toBe('base');
    },
  );

  it('counts registrations only, and only for the last hour', async () => {
    const from = '100.64.7.1';
    // Failed registrations (a taken wallet proof, a bad keystore) and resets count for nothing.
    for (let i = 0; i < HOURLY + 1; i++) {
      const keys = await cloneMemberKeys(base);
      const bad = await register(
        { ...keys, keystore: '{"x":1}' },
        from,
        await passGate(t.app, 'register', from),
      );
      expect(bad.statusCode).toBe(400);
      expect(
        (await mailRequest('reset', known.email, await passGate(t.app, 'reset', from), from))
          .statusCode,
      ).toBe(200);
    }
    expect(await difficulty('register', from)).toBe('base');
    for (let i = 0; i < HOURLY; i++)
      expect(
        (await register(await cloneMemberKeys(base), from, await passGate(t.app, 'register', from)))
          .statusCode,
      ).toBe(201);
    expect(await difficulty('register', from)).toBe('raised');
    // An hour later the network is back at the base.
    await sql`UPDATE signup_gate_uses SET used_at = used_at - interval '61 minutes' WHERE network = '100.64.7.0/24'`.execute(
      db(),
    );
    expect(await difficulty('register', from)).toBe('base');
  });
});

describe(`used solutions are kept only as long as needed (${testDbKind})`, () => {
  it('a registration’s row holds its network, no member; rows past their time are deleted as solutions are used', async () => {
    const keys = await cloneMemberKeys(base);
    const gate = await passGate(t.app, 'register', '198.18.9.9');
    expect((await register(keys, '198.18.9.9', gate)).statusCode).toBe(201);
    const row = await db()
      .selectFrom('signup_gate_uses')
      .selectAll()
      .where('nonce', '=', gate.challenge.parameters.nonce)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ form: 'register', network: '198.18.9.0/24', registered: true });
    expect(JSON.stringify(row)).not.toContain(keys.email);
    // Kept past the hour it counts for; a reset's row only past its challenge's expiry.
    const keptFor = (new Date(row.keep_until).getTime() - Date.now()) / 60_000;
    expect(keptFor).toBeGreaterThan(65);
    expect(keptFor).toBeLessThan(75);

    await db()
      .insertInto('signup_gate_uses')
      .values({
        nonce: 'e'.repeat(32),
        form: 'reset',
        network: null,
        keep_until: new Date(Date.now() - 1000),
      })
      .execute();
    // Deleting is done at most once a minute per process: a minute on, the next use does it.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
    try {
      const late = await passGate(t.app, 'reset');
      expect((await mailRequest('reset', known.email, late)).statusCode).toBe(200);
    } finally {
      vi.useRealTimers();
    }
    const stale = await db()
      .selectFrom('signup_gate_uses')
      .select('nonce')
      .where('nonce', '=', 'e'.repeat(32))
      .execute();
    expect(stale).toEqual([]);
  });
});

describe(`across server processes (${testDbKind})`, () => {
  let second: TestApp;
  beforeAll(async () => {
    second = await buildTestApp({ sameDatabaseAs: t, chain: false, env });
  }, 120_000);
  afterAll(() => second?.close());

  it('a solution used in one process is refused in the other; sent to both at once, one wins', async () => {
    const gate = await passGate(t.app, 'register', '198.18.3.1');
    expect((await register(await cloneMemberKeys(base), '198.18.3.1', gate)).statusCode).toBe(201);
    const again = await register(await cloneMemberKeys(base), '198.18.3.1', gate, second.app);
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('gate_used');

    const shared = await passGate(second.app, 'reset');
    const answers = await Promise.all(
      [t.app, second.app].map((app) =>
        app.inject({
          method: 'POST',
          url: '/auth/request-password-reset',
          headers: { origin: ORIGIN },
          payload: { email: known.email, redirectTo: '/reset-password', gate: shared },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    expect(answers.find((a) => a.statusCode === 400)!.json().code).toBe('gate_used');
  });
});

describe(`many challenges from one address (${testDbKind})`, () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await buildTestApp({
      chain: false,
      env: { PUBLIC_URL: ORIGIN, AUTH_RATE_LIMIT_PER_IP: '5' },
    });
  }, 120_000);
  afterAll(() => limited?.close());

  it('get the attempt limit’s number per window, then 429; another address is not held up', async () => {
    const ask = (from: string, form = 'register') =>
      limited.app.inject({
        method: 'GET',
        url: `/api/signup-gate/challenge?form=${form}`,
        remoteAddress: from,
      });
    const codes: number[] = [];
    for (const form of ['register', 'resend', 'reset', 'register', 'reset', 'resend', 'register'])
      codes.push((await ask('198.18.5.5', form)).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect((await ask('198.18.6.6')).statusCode).toBe(200);
  });
});

// Keep the solver honest: a challenge made here is solved by the same function the tests use.
it('solveGate answers a challenge the server accepts', async () => {
  const challenge = await gateChallengeFor(t.app, 'resend');
  const pass = await solveGate(challenge);
  expect((await mailRequest('resend', known.email, pass)).statusCode).toBe(200);
});
