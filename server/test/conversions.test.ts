// Converting care CAPs into REME (docs/product.md#caps-and-reme): a conversion is a ledger row that
// moves care CAPs once, at the community's rate, and its REME is paid in the member's next round and
// claimed on chain like any other. Tried as a stranger would: no session, another member's request
// id, a replay, more CAPs than are left, two conversions at once, malformed and oversized bodies,
// joining CAPs, and conversion switched off.
import type { ClaimData, UserDetails } from '@crw/core';
import { parseEther } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendClaim } from './helpers/chain-client';
import {
  cloneMemberKeys,
  joinAndConfirm,
  makeMemberKeys,
  ORIGIN,
  signedInCookie,
  type MemberKeys,
} from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

let t: TestApp;
let operator: Record<string, string>;
let a: MemberKeys;
let aCookie: string;
let b: MemberKeys;
let bCookie: string;

/** 60 CAPs at 6,028 CAPs per 1,000 REME, rounded down to the base unit. */
const REME_FOR_60 = (60n * 1000n * 10n ** 18n) / 6028n;

async function me(cookie = aCookie): Promise<UserDetails> {
  const res = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as UserDetails;
}

function convert(body: unknown, cookie: string | null = aCookie) {
  return t.app.inject({
    method: 'POST',
    url: '/api/conversions',
    headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
    payload: body as object,
  });
}

async function creditCare(email: string, caps: number) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/operator/care-actions',
    headers: operator,
    payload: {
      idempotencyKey: crypto.randomUUID(),
      email,
      caps,
      description: 'Visited a neighbour',
    },
  });
  expect(res.statusCode, res.body).toBe(201);
}

beforeAll(async () => {
  t = await buildTestApp({ env: { PUBLIC_URL: ORIGIN } });
  operator = { authorization: `Bearer ${t.services.operatorKey}` };
  a = await makeMemberKeys();
  await joinAndConfirm(t.app, t.services.database.db, a);
  aCookie = await signedInCookie(t.app, a);
  b = await cloneMemberKeys(a);
  await joinAndConfirm(t.app, t.services.database.db, b);
  bCookie = await signedInCookie(t.app, b);
}, 60_000);
afterAll(() => t?.close());

describe(`converting care CAPs (${testDbKind})`, () => {
  it('converts only care CAPs: joining CAPs are not convertible, and nobody converts without a session', async () => {
    expect((await me()).caps).toMatchObject({ careActions: 0, converted: 0, convertible: 0 });
    const none = await convert({ caps: 1, requestId: crypto.randomUUID() });
    expect(none.statusCode).toBe(409);
    expect(none.json().code).toBe('not_enough_caps');
    const stranger = await convert({ caps: 1, requestId: crypto.randomUUID() }, null);
    expect(stranger.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/conversions' })).statusCode).toBe(401);
  });

  it('refuses malformed and oversized requests without touching the ledger', async () => {
    await creditCare(a.email, 100);
    for (const body of [
      { caps: 0, requestId: crypto.randomUUID() },
      { caps: -5, requestId: crypto.randomUUID() },
      { caps: 1.5, requestId: crypto.randomUUID() },
      { caps: '10', requestId: crypto.randomUUID() },
      { caps: 10 ** 12, requestId: crypto.randomUUID() },
      { caps: 10, requestId: 'not-a-uuid' },
      { caps: 10 },
      [{ caps: 10, requestId: crypto.randomUUID() }],
    ]) {
      const res = await convert(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await me()).caps).toMatchObject({ careActions: 100, converted: 0, convertible: 100 });
  });

  it('converts at the rate, once per request id, and another member cannot reuse the id', async () => {
    const requestId = crypto.randomUUID();
    const first = await convert({ caps: 60, requestId });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().conversion).toMatchObject({
      caps: 60,
      reme: REME_FOR_60.toString(),
      paidInRound: null,
    });
    const replay = await convert({ caps: 60, requestId });
    expect(replay.statusCode).toBe(200);
    expect(replay.json().conversion.convertedAt).toBe(first.json().conversion.convertedAt);
    const theft = await convert({ caps: 1, requestId }, bCookie);
    expect(theft.statusCode).toBe(409);
    expect(theft.json().code).toBe('idempotency_conflict');

    const details = await me();
    expect(details.caps).toMatchObject({ careActions: 100, converted: 60, convertible: 40 });
    expect(details.tokens.incoming).toBe((parseEther('200') + REME_FOR_60).toString());
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/conversions',
      headers: { cookie: aCookie },
    });
    expect(list.json().items).toHaveLength(1);
    const others = await t.app.inject({
      method: 'GET',
      url: '/api/conversions',
      headers: { cookie: bCookie },
    });
    expect(others.json().items).toEqual([]);
  });

  it('never converts the same CAP twice, even when two conversions arrive at once', async () => {
    const both = await Promise.all([
      convert({ caps: 40, requestId: crypto.randomUUID() }),
      convert({ caps: 40, requestId: crypto.randomUUID() }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.statusCode === 409)!.json().code).toBe('not_enough_caps');
    expect((await me()).caps).toMatchObject({ converted: 100, convertible: 0 });
    const ledger = await t.services.database.db
      .selectFrom('reward_ledger')
      .select(['caps'])
      .where('kind', '=', 'conversion')
      .execute();
    expect(ledger.reduce((n, r) => n + Number(r.caps), 0)).toBe(100);
  });

  it('stops a script converting one CAP at a time: 20 a minute per member', async () => {
    await creditCare(b.email, 30);
    const codes: number[] = [];
    for (let i = 0; i < 21; i++)
      codes.push((await convert({ caps: 1, requestId: crypto.randomUUID() }, bCookie)).statusCode);
    // b used one attempt above (the stolen request id).
    expect(codes.filter((c) => c === 200)).toHaveLength(19);
    expect(codes.at(-1)).toBe(429);
    expect((await me(bCookie)).caps).toMatchObject({ converted: 19, convertible: 11 });
  });

  it('pays the converted REME in the next round, claimable on chain, and says which round paid it', async () => {
    const forty = (40n * 1000n * 10n ** 18n) / 6028n;
    const entitled = parseEther('200') + REME_FOR_60 + forty;
    const published = await t.app.inject({
      method: 'POST',
      url: '/api/operator/distributions',
      headers: operator,
    });
    expect(published.statusCode, published.body).toBe(200);
    const index = published.json().index as number;
    const claim = (
      await t.app.inject({ method: 'GET', url: '/api/claim', headers: { cookie: aCookie } })
    ).json() as ClaimData;
    expect(claim.distributedTokens).toBe(entitled.toString());
    const fund = await t.app.inject({
      method: 'POST',
      url: '/api/operator/fund',
      headers: operator,
      payload: { address: a.address, eth: '0.05' },
    });
    expect(fund.statusCode, fund.body).toBe(200);
    const done = await sendClaim(
      t.app,
      a.privateKey,
      t.services.chain.distributor.target as string,
      [a.address, entitled, claim.proof, index],
    );
    expect(done.receipt?.status).toBe('0x1');
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/conversions',
      headers: { cookie: aCookie },
    });
    expect(list.json().items.map((c: { paidInRound: number }) => c.paidInRound)).toEqual([
      index,
      index,
    ]);
  });
});

describe(`the member's activity (${testDbKind})`, () => {
  it('tells the story newest first: joined, care, conversions, a friend named at level 1 only, the payout; only to the member', async () => {
    const referralCode = (
      await t.services.database.db
        .selectFrom('profiles')
        .select('referral_code')
        .where('email', '=', a.email)
        .executeTakeFirstOrThrow()
    ).referral_code!;
    const friend = await cloneMemberKeys(a);
    await joinAndConfirm(t.app, t.services.database.db, friend, referralCode);
    const read = (cookie: string | null) =>
      t.app.inject({
        method: 'GET',
        url: '/api/activity',
        headers: cookie ? { cookie } : {},
      });
    expect((await read(null)).statusCode).toBe(401);
    const res = await read(aCookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const items = res.json().items as Array<Record<string, unknown>>;
    const story = items.map((i) => [i.kind, i.caps, i.friend ?? i.description ?? null]);
    expect(story[0]).toEqual(['referral', 100, 'Ada']);
    expect(story).toContainEqual(['care', 100, 'Visited a neighbour']);
    expect(story.filter(([kind]) => kind === 'conversion')).toHaveLength(2);
    expect(story.at(-1)).toEqual(['joined', 200, null]);
    const payout = items.find((i) => i.kind === 'payout')!;
    expect(BigInt(payout.reme as string)).toBe(
      parseEther('200') + REME_FOR_60 + (40n * 1000n * 10n ** 18n) / 6028n,
    );
    const times = items.map((i) => Date.parse(i.at as string));
    expect(times).toEqual([...times].sort((x, y) => y - x));
    // Nothing of a's in b's list, and nothing names anyone but a level-1 friend.
    const other = (await read(bCookie)).json().items as Array<Record<string, unknown>>;
    const mine = new Set(items.map((i) => i.id));
    expect(other.filter((i) => i.kind !== 'payout' && mine.has(i.id))).toEqual([]);
    expect(other.map((i) => i.kind)).not.toContain('referral');
    expect(other.at(-1)!.kind).toBe('joined');
    expect(res.body).not.toContain(friend.email);
    expect(res.body).not.toContain('Lovelace');
  });
});

describe(`the notification centre (${testDbKind})`, () => {
  const read = async (cookie: string) =>
    (await t.app.inject({ method: 'GET', url: '/api/activity', headers: { cookie } })).json() as {
      items: Array<{ at: string }>;
      unread: number;
      seenAt: string | null;
    };
  const markSeen = (body: unknown, headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/activity/seen',
      headers,
      payload: body as object,
    });

  it('counts what came after the member last opened it, for that member only; a moment in the future counts as now', async () => {
    const before = await read(aCookie);
    expect(before.seenAt).toBeNull();
    expect(before.unread).toBe(before.items.length);
    const newest = before.items[0]!.at;
    const ok = await markSeen({ upTo: newest }, { origin: ORIGIN, cookie: aCookie });
    expect(ok.statusCode, ok.body).toBe(200);
    const after = await read(aCookie);
    expect(after.unread).toBe(0);
    expect(after.seenAt).toBe(newest);
    // Another member's marker is theirs: b still has everything unread.
    const other = await read(bCookie);
    expect(other.unread).toBe(other.items.length);
    // A marker in the future is taken as now: a credit after it still counts.
    expect(
      (await markSeen({ upTo: '2099-01-01T00:00:00.000Z' }, { origin: ORIGIN, cookie: aCookie }))
        .statusCode,
    ).toBe(200);
    expect(Date.parse((await read(aCookie)).seenAt!)).toBeLessThanOrEqual(Date.now());
    await new Promise((r) => setTimeout(r, 20));
    await creditCare(a.email, 5);
    expect((await read(aCookie)).unread).toBe(1);
    // An earlier moment never moves the marker back.
    await markSeen({ upTo: '2000-01-01T00:00:00.000Z' }, { origin: ORIGIN, cookie: aCookie });
    expect((await read(aCookie)).unread).toBe(1);
  });

  it('refuses a stranger, a cross-site request and malformed moments', async () => {
    expect(
      (await markSeen({ upTo: new Date().toISOString() }, { origin: ORIGIN })).statusCode,
    ).toBe(401);
    expect(
      (
        await markSeen(
          { upTo: new Date().toISOString() },
          { origin: 'https://evil.example', cookie: aCookie },
        )
      ).statusCode,
    ).toBe(403);
    for (const body of [{}, { upTo: 'yesterday' }, { upTo: 12 }, { upTo: 'x'.repeat(10_000) }]) {
      const res = await markSeen(body, { origin: ORIGIN, cookie: aCookie });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });
});

describe(`conversion switched off by the operator (${testDbKind})`, () => {
  it('says so, converts nothing and tells the app', async () => {
    const closed = await buildTestApp({
      chain: false,
      env: { PUBLIC_URL: ORIGIN, CONVERSION_OPEN: 'false', CONVERSION_CAPS_PER_REME: '10' },
    });
    try {
      const keys = await makeMemberKeys();
      await joinAndConfirm(closed.app, closed.services.database.db, keys);
      const cookie = await signedInCookie(closed.app, keys);
      const config = await closed.app.inject({ method: 'GET', url: '/api/config' });
      expect(config.json().conversion).toEqual({ open: false, capsPerReme: '10' });
      const res = await closed.app.inject({
        method: 'POST',
        url: '/api/conversions',
        headers: { origin: ORIGIN, cookie },
        payload: { caps: 1, requestId: crypto.randomUUID() },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('conversion_closed');
    } finally {
      await closed.close();
    }
  });
});
