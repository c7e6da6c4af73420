import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFERRAL_CAPS_BY_LEVEL, shortAddress, SIGNUP_CAPS, SIGNUP_REME } from '@crw/core';
import { setUpSchema } from '../src/setup-schema';
import type { DB } from '../src/infra/db/schema';
import { buildTestApp, type TestApp } from './helpers/test-app';
import {
  cloneMemberKeys,
  cookieOf,
  makeMemberKeys,
  ORIGIN,
  registerBody,
  signIn,
  type MemberKeys,
} from './helpers/members';
import { testDbKind } from './helpers/test-database';

let t: TestApp;
let db: Kysely<DB>;
let base: MemberKeys;
const E18 = 10n ** 18n;

async function register(code?: string, keys?: MemberKeys, extra: Record<string, unknown> = {}) {
  const member = keys ?? (await cloneMemberKeys(base));
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/register',
    payload: await registerBody(t.app, member, {
      ...(code === undefined ? {} : { referralCode: code }),
      ...extra,
    }),
  });
  return { res, member, id: res.statusCode === 201 ? (res.json().userId as string) : '' };
}

/** The member opens the mailed confirmation link (better-auth's verify-email). */
async function confirm(email: string) {
  const mail = await db
    .selectFrom('mail_outbox')
    .select('text_body')
    .where('to_address', '=', email)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const url = new URL(/https?:\/\/\S+\/auth\/verify-email\S*/.exec(mail.text_body)![0]);
  const res = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
  expect(res.statusCode).toBe(302);
}

async function codeOf(id: string) {
  return (await sql<{ code: string }>`SELECT get_user_referral_code(${id}) AS code`.execute(db))
    .rows[0]!.code;
}

async function balances(id: string) {
  return db
    .selectFrom('user_token_distributions')
    .selectAll()
    .where('user_id', '=', id)
    .executeTakeFirstOrThrow();
}

/** Every balance equals the sum of its ledger. */
async function expectBalancesEqualLedger() {
  const mismatches = await sql<{ user_id: string }>`
    SELECT d.user_id FROM user_token_distributions d
    LEFT JOIN (SELECT user_id,
                      sum(caps) FILTER (WHERE kind = 'referral') AS referral_caps,
                      sum(caps) FILTER (WHERE kind = 'care_action') AS care_caps,
                      sum(caps) FILTER (WHERE kind = 'signup') AS signup_caps,
                      sum(reme) FILTER (WHERE kind = 'signup') AS signup_reme,
                      sum(reme) FILTER (WHERE kind = 'referral') AS referral_reme
                 FROM reward_ledger GROUP BY user_id) l ON l.user_id = d.user_id
    WHERE d.rrp_balance <> coalesce(l.referral_caps, 0) OR d.activity_caps <> coalesce(l.care_caps, 0)
       OR d.signup_caps <> coalesce(l.signup_caps, 0)
       OR d.signup_tokens <> coalesce(l.signup_reme, 0) OR d.earned_referral_tokens <> coalesce(l.referral_reme, 0)`.execute(
    db,
  );
  expect(mismatches.rows).toEqual([]);
  // The kept network counts equal the referrals rows.
  const counts = await sql<{ id: string }>`
    SELECT p.id FROM profiles p
     WHERE p.network_level1 <> (SELECT count(*) FROM referrals r WHERE r.referrer_id = p.id AND r.level = 1)
        OR p.network_level2 <> (SELECT count(*) FROM referrals r WHERE r.referrer_id = p.id AND r.level = 2)
        OR p.network_level3 <> (SELECT count(*) FROM referrals r WHERE r.referrer_id = p.id AND r.level = 3)`.execute(
    db,
  );
  expect(counts.rows).toEqual([]);
}

beforeAll(async () => {
  t = await buildTestApp({
    chain: false,
    env: { PUBLIC_URL: ORIGIN, AUTH_RATE_LIMIT_PER_IP: '1000' },
  });
  db = t.services.database.db;
  base = await makeMemberKeys();
});
afterAll(() => t.close());

describe('referral codes at sign-up', () => {
  it('gives each member a unique code of letters and digits', async () => {
    const a = await register();
    const b = await register();
    expect(await codeOf(a.id)).toMatch(/^[A-Z0-9]{8}$/);
    expect(await codeOf(a.id)).not.toBe(await codeOf(b.id));
  });

  it.each([
    ['an unknown code', 'NOPE1234'],
    ['an over-long code', 'A'.repeat(40)],
    ['a non-alphanumeric code', 'AB-12'],
  ])('refuses %s with "Invalid referral code: …" and creates nothing', async (_what, code) => {
    const { res, member } = await register(code);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'invalid_referral_code',
      message: `Invalid referral code: ${code}. Please check the code and try again.`,
    });
    expect(
      await db.selectFrom('profiles').select('id').where('email', '=', member.email).execute(),
    ).toEqual([]);
  });

  it('accepts a valid code typed in lower case', async () => {
    const a = await register();
    const { res, id } = await register((await codeOf(a.id)).toLowerCase());
    expect(res.statusCode).toBe(201);
    const profile = await db
      .selectFrom('profiles')
      .select(['referred_by', 'referred_with_code'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(profile).toEqual({ referred_by: a.id, referred_with_code: await codeOf(a.id) });
  });
});

describe('crediting when the referred member confirms', () => {
  it('A ← B ← C ← D ← E: A earns 100 + 50 + 25 referral CAPs, and nothing for E (level 4)', async () => {
    const a = await register();
    await confirm(a.member.email);
    const chain = [a];
    for (let i = 0; i < 4; i++) {
      const before = (await balances(a.id)).rrp_balance;
      const next = await register(await codeOf(chain[chain.length - 1]!.id));
      expect(next.res.statusCode).toBe(201);
      // Nothing is credited before the confirmation.
      expect((await balances(a.id)).rrp_balance).toBe(before);
      await confirm(next.member.email);
      chain.push(next);
    }
    const [A, B, C, D, E] = chain.map((m) => m.id) as [string, string, string, string, string];
    expect((await balances(A)).rrp_balance).toBe(175);
    expect((await balances(A)).earned_referral_tokens).toBe(String(175n * E18));
    expect((await balances(B)).rrp_balance).toBe(175);
    expect((await balances(C)).rrp_balance).toBe(150);
    expect((await balances(D)).rrp_balance).toBe(100);
    expect((await balances(E)).rrp_balance).toBe(0);
    for (const id of [A, B, C, D, E])
      expect((await balances(id)).signup_tokens).toBe(String(200n * E18));

    const counts = (
      await sql<{ r: unknown }>`SELECT get_referral_hierarchy_with_counts(${A}) AS r`.execute(db)
    ).rows[0]!.r;
    expect(counts).toMatchObject({
      success: true,
      data: { level_counts: { level1: 1, level2: 1, level3: 1 }, total_network_size: 3 },
    });
    const hierarchy = (
      counts as { data: { hierarchy: Array<{ referred_id: string; level: number }> } }
    ).data.hierarchy;
    expect(hierarchy.map((h) => [h.referred_id, h.level])).toEqual([
      [B, 1],
      [C, 2],
      [D, 3],
    ]);
    const capped = (
      await sql<{
        r: { data: { hierarchy: unknown[]; total_network_size: number } };
      }>`SELECT get_referral_hierarchy_with_counts(${A}, 2) AS r`.execute(db)
    ).rows[0]!.r;
    expect(capped.data.hierarchy).toHaveLength(2);
    expect(capped.data.total_network_size).toBe(3);
    const byLevel = await sql<{
      referred_id: string;
    }>`SELECT referred_id FROM get_referrals_by_level(${A}, 2)`.execute(db);
    expect(byLevel.rows.map((r) => r.referred_id)).toEqual([C]);
    const history = await sql<{
      amount: number;
      level: number;
      from_user_id: string;
    }>`SELECT * FROM get_referral_credit_history(${A})`.execute(db);
    expect(history.rows.map((h) => [h.amount, h.level, h.from_user_id]).sort()).toEqual(
      [
        [100, 1, B],
        [25, 3, D],
        [50, 2, C],
      ].sort(),
    );
    expect(
      (await sql<{ n: number }>`SELECT get_total_referral_income(${A}) AS n`.execute(db)).rows[0]!
        .n,
    ).toBe(175);
    expect(
      (await sql<{ r: unknown }>`SELECT get_user_referral_balance(${A}) AS r`.execute(db)).rows[0]!
        .r,
    ).toEqual({ success: true, data: { total_earned: 175 } });

    // A repeat of the confirmation, or of the crediting itself, credits nothing.
    await sql`SELECT credit_confirmed_member(${E})`.execute(db);
    await sql`SELECT process_referral(${D}, ${E}, ${await codeOf(D)})`.execute(db);
    expect((await balances(D)).rrp_balance).toBe(100);
    await expectBalancesEqualLedger();
  });

  it('credits the amounts core names, read from reward_amounts (written at every migration)', async () => {
    const row = await sql<{ signup_caps: string; referral_caps: string }>`
      SELECT signup_caps::text, referral_caps::text FROM reward_amounts`.execute(db);
    expect(row.rows).toEqual([
      { signup_caps: String(SIGNUP_CAPS), referral_caps: `{${REFERRAL_CAPS_BY_LEVEL.join(',')}}` },
    ]);
    // The functions read the row, not literals: other amounts in the row are what gets credited.
    await sql`UPDATE reward_amounts SET signup_caps = 7, signup_reme = 7,
              referral_caps = ARRAY[3, 2, 1], referral_reme = ARRAY[3, 2, 1]`.execute(db);
    try {
      const A = await register();
      const B = await register(await codeOf(A.id));
      await confirm(A.member.email);
      await confirm(B.member.email);
      expect((await balances(B.id)).signup_caps).toBe(7);
      expect((await balances(A.id)).rrp_balance).toBe(3);
    } finally {
      // Migrating again puts back core's amounts.
      await setUpSchema(t.services.database);
    }
    expect(
      (await sql<{ n: string }>`SELECT signup_caps::text AS n FROM reward_amounts`.execute(db))
        .rows,
    ).toEqual([{ n: String(SIGNUP_CAPS) }]);
    const C = await register();
    await confirm(C.member.email);
    expect((await balances(C.id)).signup_caps).toBe(SIGNUP_CAPS);
    expect((await balances(C.id)).signup_tokens).toBe(SIGNUP_REME.toString());
  });

  it('refuses self-referral, a second referrer and a loop, changing nothing', async () => {
    const a = await register();
    const b = await register(await codeOf(a.id));
    await confirm(a.member.email);
    await confirm(b.member.email);
    const other = await register();
    const before = await db
      .selectFrom('reward_ledger')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const call = async (referrer: string, referred: string) =>
      (
        await sql<{
          r: { success: boolean; message: string };
        }>`SELECT process_referral_enhanced(${referrer}, ${referred}, ${await codeOf(referrer)}) AS r`.execute(
          db,
        )
      ).rows[0]!.r;
    expect(await call(a.id, a.id)).toEqual({
      success: false,
      message: 'A member cannot refer themselves',
    });
    expect(await call(other.id, b.id)).toEqual({
      success: false,
      message: 'This member was already referred',
    });
    expect(await call(b.id, a.id)).toEqual({
      success: false,
      message: 'A referral chain cannot loop',
    });
    const after = await db
      .selectFrom('reward_ledger')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
    await expectBalancesEqualLedger();
  });

  it(`20 concurrent confirmations and 20 concurrent replays never credit twice (${testDbKind})`, async () => {
    const referrer = await register();
    await confirm(referrer.member.email);
    const code = await codeOf(referrer.id);
    const members = [];
    for (let i = 0; i < 20; i++) members.push(await register(code));
    const replayed = members[0]!.id;
    await Promise.all([
      ...members.map((m) => sql`SELECT credit_confirmed_member(${m.id})`.execute(db)),
      ...Array.from({ length: 20 }, () =>
        sql`SELECT credit_confirmed_member(${replayed})`.execute(db),
      ),
    ]);
    expect((await balances(referrer.id)).rrp_balance).toBe(20 * 100);
    const replays = await db
      .selectFrom('reward_ledger')
      .select('source_key')
      .where('user_id', '=', replayed)
      .execute();
    expect(replays.map((r) => r.source_key)).toEqual([`signup:${replayed}`]);
    await expectBalancesEqualLedger();
  });
});

describe('the member API over the SQL functions', () => {
  it('network stats, credit history, balance and the CAPs breakdown match the SQL functions', async () => {
    const a = await register();
    await confirm(a.member.email);
    const b = await register(await codeOf(a.id));
    await confirm(b.member.email);
    const c = await register(await codeOf(b.id));
    await confirm(c.member.email);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/auth/sign-in/email',
      headers: { origin: ORIGIN },
      payload: { email: a.member.email, password: a.member.authSecret },
    });
    const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
    const get = async (url: string) =>
      (await t.app.inject({ method: 'GET', url, headers: { cookie } })).json();

    const network = await get('/api/referrals/network');
    const fromSql = (
      await sql<{
        r: { data: { level_counts: unknown; total_network_size: number } };
      }>`SELECT get_referral_hierarchy_with_counts(${a.id}) AS r`.execute(db)
    ).rows[0]!.r;
    expect(network.success).toBe(true);
    expect(network.data.level_counts).toEqual(fromSql.data.level_counts);
    expect(network.data.level_counts).toEqual({ level1: 1, level2: 1, level3: 0 });
    expect(network.data.total_network_size).toBe(2);
    expect(
      network.data.hierarchy.map((h: { referred_id: string; parent_id: string; level: number }) => [
        h.referred_id,
        h.parent_id,
        h.level,
      ]),
    ).toEqual([
      [b.id, a.id, 1],
      [c.id, b.id, 2],
    ]);
    const credits = await get('/api/referrals/credits');
    expect(credits.data.map((x: { amount: number; level: number }) => [x.amount, x.level])).toEqual(
      [
        [50, 2],
        [100, 1],
      ],
    );
    expect(await get('/api/referrals/balance')).toEqual({ data: { total_earned: 150 } });
    const me = await get('/api/me');
    expect(me.caps).toEqual({
      registration: 200,
      referrals: 150,
      careActions: 0,
      total: 350,
      converted: 0,
      convertible: 0,
    });
    expect(me.referralLink).toBe(`${ORIGIN}/r/${await codeOf(a.id)}`);
    expect((await t.app.inject({ method: 'GET', url: '/api/referrals/network' })).statusCode).toBe(
      401,
    );
  });
});

describe('the network page names friends by what they chose to share, and nothing more', () => {
  it('a friend of level 1 by the first word of their name (or their wallet shortened), deeper levels unnamed; never e-mails, usernames or last names; only the own network', async () => {
    const a = await register();
    await confirm(a.member.email);
    const join = async (code: string, email: string, names: Record<string, unknown>) => {
      const m = await register(code, await cloneMemberKeys(base, email), names);
      expect(m.res.statusCode).toBe(201);
      await confirm(m.member.email);
      return m;
    };
    const codeA = await codeOf(a.id);
    const long = 'Bartholomew'.repeat(5); // 55 characters, one word
    const bob = await join(codeA, 'bobby.tables@example.test', {
      firstName: '  Bob Jr ',
      lastName: 'Builderson',
      username: 'bobby-handle',
    });
    const anon = await join(codeA, 'quiet.one@example.test', {
      firstName: undefined,
      lastName: undefined,
    });
    const longName = await join(codeA, 'longname.person@example.test', {
      firstName: long,
      lastName: 'Smithereens',
    });
    const carol = await join(await codeOf(bob.id), 'carol.hidden@example.test', {
      firstName: 'Carol',
      lastName: 'Quartermaine',
    });
    const dave = await join(await codeOf(carol.id), 'dave.deep@example.test', {
      firstName: 'Dave',
      lastName: 'Deepwater',
    });

    const cookieA = cookieOf(
      (await signIn(t.app, a.member.email, a.member.authSecret)).headers['set-cookie'],
    );
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/referrals/network',
      headers: { cookie: cookieA },
    });
    expect(res.statusCode).toBe(200);
    const body = res.body;
    const network = res.json() as {
      data: {
        hierarchy: Array<{
          referred_id: string;
          level: number;
          name: string | null;
          short_address: string | null;
        }>;
      };
    };
    const shown = (id: string) => {
      const item = network.data.hierarchy.find((h) => h.referred_id === id)!;
      return [item.level, item.name, item.short_address];
    };
    expect(shown(bob.id)).toEqual([1, 'Bob', null]);
    expect(shown(anon.id)).toEqual([1, null, shortAddress(anon.member.address)]);
    expect(shown(longName.id)).toEqual([1, long.slice(0, 40), null]);
    expect(shown(carol.id)).toEqual([2, null, null]);
    expect(shown(dave.id)).toEqual([3, null, null]);
    expect(Object.keys(network.data.hierarchy[0]!).sort()).toEqual([
      'created_at',
      'level',
      'name',
      'parent_id',
      'referred_id',
      'short_address',
    ]);
    for (const m of [bob, anon, longName, carol, dave]) {
      expect(body).not.toContain(m.member.email);
      expect(body).not.toContain(m.member.email.split('@')[0]);
      expect(body.toLowerCase()).not.toContain(m.member.address.toLowerCase());
    }
    for (const secret of [
      'Builderson',
      'bobby-handle',
      'Jr',
      'Smithereens',
      'Carol',
      'Quartermaine',
      'Dave',
      'Deepwater',
    ])
      expect(body).not.toContain(secret);

    // Bob sees his own network (Carol at level 1, by name; Dave at level 2), never Alice's.
    const cookieB = cookieOf(
      (await signIn(t.app, bob.member.email, bob.member.authSecret)).headers['set-cookie'],
    );
    const own = (
      await t.app.inject({
        method: 'GET',
        url: '/api/referrals/network',
        headers: { cookie: cookieB },
      })
    ).json() as typeof network;
    expect(own.data.hierarchy.map((h) => [h.referred_id, h.level, h.name])).toEqual([
      [carol.id, 1, 'Carol'],
      [dave.id, 2, null],
    ]);
    expect(JSON.stringify(own)).not.toContain(a.id);
    expect(JSON.stringify(own)).not.toContain(anon.id);

    // No session, no network.
    expect((await t.app.inject({ method: 'GET', url: '/api/referrals/network' })).statusCode).toBe(
      401,
    );
  });
});

describe('care actions (operator API)', () => {
  const post = (payload: unknown, key: string | null = t.services.operatorKey) =>
    t.app.inject({
      method: 'POST',
      url: '/api/operator/care-actions',
      headers: key === null ? {} : { authorization: `Bearer ${key}` },
      payload: payload as object,
    });

  it('credits activity CAPs once per idempotency key', async () => {
    const m = await register();
    const body = {
      email: m.member.email,
      caps: 30,
      description: 'Visited a neighbour',
      idempotencyKey: `visit-${m.id}`,
    };
    const first = await post(body);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({ credited: true, userId: m.id, caps: 30 });
    const again = await post(body);
    expect(again.statusCode).toBe(200);
    expect(again.json().credited).toBe(false);
    expect((await balances(m.id)).activity_caps).toBe(30);
    await expectBalancesEqualLedger();
  });

  it.each([
    ['no key', null],
    ['a wrong key', 'x'.repeat(43)],
  ])('refuses %s with 401 and changes nothing', async (_what, key) => {
    const m = await register();
    const res = await post(
      { email: m.member.email, caps: 5, description: 'x', idempotencyKey: `k-${m.id}` },
      key,
    );
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      code: 'invalid_api_key',
      message: 'A valid operator API key is required.',
    });
    expect((await balances(m.id)).activity_caps).toBe(0);
  });

  it.each([
    ['a negative amount', -5],
    ['a non-integer amount', 2.5],
    ['a zero amount', 0],
  ])('refuses %s with 400 and changes nothing', async (_what, caps) => {
    const m = await register();
    const res = await post({
      email: m.member.email,
      caps,
      description: 'x',
      idempotencyKey: `k-${m.id}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_request');
    expect((await balances(m.id)).activity_caps).toBe(0);
  });

  it('answers 409 with what was recorded when a used key comes with another member or amount', async () => {
    const [m, other] = [await register(), await register()];
    const key = `visit-conflict-${m.id}`;
    expect(
      (
        await post({
          email: m.member.email,
          caps: 30,
          description: 'Visited a neighbour',
          idempotencyKey: key,
        })
      ).statusCode,
    ).toBe(201);
    for (const body of [
      {
        email: other.member.email,
        caps: 30,
        description: 'Visited a neighbour',
        idempotencyKey: key,
      },
      { email: m.member.email, caps: 300, description: 'Visited a neighbour', idempotencyKey: key },
    ]) {
      const res = await post(body);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'idempotency_conflict',
        recorded: { userId: m.id, caps: 30, description: 'Visited a neighbour' },
      });
    }
    expect((await balances(m.id)).activity_caps).toBe(30);
    expect((await balances(other.id)).activity_caps).toBe(0);
  });

  it('answers 404 for an unknown member', async () => {
    const res = await post({
      email: 'nobody@example.test',
      caps: 5,
      description: 'x',
      idempotencyKey: 'k-nobody',
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('a pending referral finishes a sign-up, nothing later', () => {
  async function signedIn(member: MemberKeys) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/sign-in/email',
      headers: { origin: ORIGIN },
      payload: { email: member.email, password: member.authSecret },
    });
    expect(res.statusCode).toBe(200);
    return String(res.headers['set-cookie']).split(';')[0]!;
  }
  const attach = (cookie: string, referralCode: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/referrals/pending',
      headers: { cookie, origin: ORIGIN },
      payload: { referralCode },
    });

  it('is refused for a member who joined more than 24 hours ago, crediting nobody', async () => {
    const referrer = await register();
    await confirm(referrer.member.email);
    const late = await register();
    await confirm(late.member.email);
    await sql`UPDATE profiles SET created_at = now() - interval '25 hours' WHERE id = ${late.id}`.execute(
      db,
    );
    const res = await attach(await signedIn(late.member), await codeOf(referrer.id));
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('referral_closed');
    expect((await balances(referrer.id)).rrp_balance).toBe(0);
    expect(
      (
        await db
          .selectFrom('profiles')
          .select('referred_by')
          .where('id', '=', late.id)
          .executeTakeFirstOrThrow()
      ).referred_by,
    ).toBeNull();
  });

  it('attaches once within 24 hours; another code afterwards is refused; the same one again changes nothing', async () => {
    const [first, second] = [await register(), await register()];
    await confirm(first.member.email);
    await confirm(second.member.email);
    const newcomer = await register();
    await confirm(newcomer.member.email);
    const cookie = await signedIn(newcomer.member);
    expect((await attach(cookie, await codeOf(first.id))).json()).toMatchObject({ success: true });
    expect((await attach(cookie, await codeOf(second.id))).statusCode).toBe(409);
    expect((await attach(cookie, await codeOf(first.id))).statusCode).toBe(200);
    expect((await balances(first.id)).rrp_balance).toBe(100);
    expect((await balances(second.id)).rrp_balance).toBe(0);
    await expectBalancesEqualLedger();
  });
});
