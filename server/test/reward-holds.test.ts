// Rewards held before they are trusted (docs/operations.md#reward-integrity). The attack this
// stops: accounts made by a script, chained through their own referral links, whose CAPs reached
// the next round's merkle root and were claimed before anyone looked. Now every joining's bonus
// and referral credits are held; a held credit is in no dry run and no published tree; signals
// (one network, one referrer's burst, a daily cap) keep a farm's credits for an operator, who
// voids them as a cluster — and a credit a round already pays cannot be voided.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { entitlements, latestPublishedRound } from '../src/domain/distribution/entitlements';
import { publishOnce } from '../src/domain/distribution/publish-once';
import { consoleOperator } from '../src/testing/console-operator';
import { sendCall, sendClaim, tokenInterface } from './helpers/chain-client';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';
import {
  cloneMemberKeys,
  makeMemberKeys,
  openConfirmationLink,
  ORIGIN,
  registerBody,
  signedInCookie,
  type MemberKeys,
} from './helpers/members';

let t: TestApp;
let base: MemberKeys;
let operator: string;
const keysOf = new Map<string, MemberKeys>();

beforeAll(async () => {
  t = await buildTestApp({
    env: {
      PUBLIC_URL: ORIGIN,
      AUTH_RATE_LIMIT_PER_IP: '100000',
      REWARD_HOLD_HOURS: '72',
      REWARD_REFERRER_DAILY_CAP: '3',
      REWARD_BUSY_NETWORK_SIGNUPS: '3',
      SPONSOR_CLAIMS: 'true',
    },
  });
  base = await makeMemberKeys();
  operator = (
    await consoleOperator(
      t.app,
      t.services.database.db,
      await cloneMemberKeys(base),
      t.services.operatorKey,
    )
  ).cookie;
}, 120_000);
afterAll(() => t?.close());

const db = () => t.services.database.db;

/** Registers from `ip` (a browser on a phone-sized screen) and opens the mailed link. */
async function joinFrom(
  ip: string,
  referrer?: string,
  { opensApp = true, screen = '412x915' } = {},
): Promise<string> {
  const keys = await cloneMemberKeys(base);
  const code = referrer ? await codeOf(referrer) : undefined;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/register',
    remoteAddress: ip,
    headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/120.0 Mobile Safari/537.36' },
    payload: await registerBody(t.app, keys, {
      device: { screen, timeZone: 'Europe/London' },
      ...(code ? { referralCode: code } : {}),
    }),
  });
  expect(res.statusCode, res.body).toBe(201);
  const cookie = await openConfirmationLink(t.app, db(), keys.email, ip);
  // The link signs the member in; a person lands on the dashboard, which asks for their details.
  if (opensApp) {
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect(me.statusCode, me.body).toBe(200);
  }
  const userId = res.json().userId as string;
  keysOf.set(userId, keys);
  return userId;
}

async function codeOf(userId: string) {
  const row = await db()
    .selectFrom('profiles')
    .select('referral_code')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.referral_code!;
}

async function balances(userId: string) {
  const row = await db()
    .selectFrom('user_token_distributions')
    .select(['signup_caps', 'rrp_balance', 'signup_tokens', 'earned_referral_tokens'])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { caps: Number(row.signup_caps) + Number(row.rrp_balance) };
}

async function statuses(subject: string) {
  const rows = await db()
    .selectFrom('reward_ledger')
    .select(['status', 'kind', 'level'])
    .where('subject_id', '=', subject)
    .orderBy('id')
    .execute();
  return rows.map((r) => `${r.kind}${r.level ?? ''}:${r.status}`);
}

/** The hold's time passes for these joinings, and the release pass runs as it does each minute. */
async function holdEnds(subjects: string[]) {
  await sql`UPDATE reward_ledger SET release_at = now() - interval '1 second'
             WHERE subject_id = ANY(${subjects}) AND status = 'held'`.execute(db());
  await t.services.rewardRelease.runNow();
}

async function nextRoundMembers(): Promise<Set<string>> {
  const rows = await entitlements(db(), await latestPublishedRound(db()));
  return new Set(rows.map((r) => r.userId));
}

const review = async () =>
  t.app.inject({ method: 'GET', url: '/api/console/review', headers: { cookie: operator } });

const decide = (body: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/console/review/decide',
    headers: { cookie: operator, origin: ORIGIN },
    payload: body,
  });

async function held(userId: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/rewards/held',
    headers: { cookie: await signedInCookie(t.app, keysOf.get(userId)!) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { items: Array<{ state: string; caps: number; releaseAt: string | null }> })
    .items;
}

describe(`rewards held before they are trusted (${testDbKind})`, () => {
  it('holds a joining’s bonus and its referrer’s credit out of every round until the hold ends, then releases them by itself', async () => {
    const a = await joinFrom('198.51.100.7');
    const b = await joinFrom('203.0.113.9', a);
    expect(await statuses(a)).toEqual(['signup:held']);
    expect(await statuses(b)).toEqual(['signup:held', 'referral1:held']);
    expect(await balances(a)).toEqual({ caps: 0 });
    const items = await held(a);
    expect(items).toEqual([
      expect.objectContaining({ state: 'held', caps: 100 }),
      expect.objectContaining({ state: 'held', caps: 200 }),
    ]);
    const releaseAt = Date.parse(items[0]!.releaseAt!);
    expect(releaseAt - Date.now()).toBeGreaterThan(71 * 3_600_000);
    let next = await nextRoundMembers();
    expect(next.has(a) || next.has(b)).toBe(false);
    // What the sign-up looked like is the member's data while it is kept: the network's prefix and
    // the hashed browser class, nothing more.
    const exported = await t.app.inject({
      method: 'GET',
      url: '/api/account/export',
      headers: { cookie: await signedInCookie(t.app, keysOf.get(a)!) },
    });
    expect(exported.json().signupSignals).toEqual({
      network: '198.51.100.0/24',
      deviceClass: expect.stringMatching(/^[0-9a-f]{64}$/) as string,
      createdAt: expect.any(String) as string,
      openedAt: expect.any(String) as string,
    });

    await holdEnds([a, b]);
    expect(await statuses(b)).toEqual(['signup:released', 'referral1:released']);
    expect(await balances(a)).toEqual({ caps: 300 });
    expect(await held(a)).toEqual([]);
    next = await nextRoundMembers();
    expect(next.has(a) && next.has(b)).toBe(true);
  });

  it('keeps a farm on one network for an operator: flagged credits are in no published tree, voiding them reverses all three levels, and a credit a round pays cannot be voided', async () => {
    const root = await joinFrom('192.0.2.10');
    const farm: string[] = [];
    for (let i = 0; i < 6; i++) farm.push(await joinFrom(`10.9.8.${20 + i}`, farm[i - 1] ?? root));
    await holdEnds([root, ...farm]);
    // Every later account shared its referrer's network; the first looked like anyone's until the
    // account it brought was flagged, which holds its joining too. The attacker's own first
    // account, from elsewhere, is released.
    expect(await statuses(root)).toEqual(['signup:released']);
    for (const account of farm)
      expect((await statuses(account)).every((s) => s.endsWith(':held'))).toBe(true);

    const published = await publishOnce(t.services);
    expect(published.index).toBeGreaterThan(0);
    const inTree = await db()
      .selectFrom('distribution_entries')
      .select('user_id')
      .where('round_index', '=', published.index)
      .execute();
    const paid = new Set(inTree.map((r) => r.user_id));
    expect(paid.has(root)).toBe(true);
    expect(farm.some((account) => paid.has(account))).toBe(false);
    // The root was paid its own bonus, none of the farm's three levels.
    expect(await balances(root)).toEqual({ caps: 200 });

    const queue = await review();
    expect(queue.statusCode, queue.body).toBe(200);
    const flagged = (
      queue.json() as {
        subjects: Array<{
          id: string;
          flagged: boolean;
          network: string;
          flags: Array<{ signal: string }>;
        }>;
      }
    ).subjects.filter((s) => farm.includes(s.id));
    expect(flagged.map((s) => s.id).sort()).toEqual([...farm].sort());
    expect(flagged.every((s) => s.flagged && s.network === '10.9.8.0/24')).toBe(true);
    const signals = (id: string) => flagged.find((s) => s.id === id)!.flags.map((f) => f.signal);
    expect(signals(farm[0]!)).toContain('referred_flagged_member');
    expect(signals(farm[1]!)).toContain('same_network_as_referrer');

    // The root's bonus was released before the round was made: the round pays it.
    const refused = await decide({ outcome: 'void', subjects: [root, ...farm], note: 'farm' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'credit_in_published_round' });
    expect(refused.json().message).toMatch(/round \d+/);
    // It names whom to leave out.
    expect(refused.json().message).toContain(keysOf.get(root)!.email);
    expect((await statuses(farm[1]!)).every((s) => s.endsWith(':held'))).toBe(true);

    const voided = await decide({ outcome: 'void', network: '10.9.8.0/24', note: 'one farm' });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(voided.json()).toEqual({ subjects: 6, credits: 2 + 3 + 4 + 4 + 4 + 4 });
    expect(await statuses(farm[2]!)).toEqual([
      'signup:void',
      'referral1:void',
      'referral2:void',
      'referral3:void',
    ]);
    expect(await held(farm[1]!)).toEqual(
      expect.arrayContaining([expect.objectContaining({ state: 'void', caps: 200 })]),
    );
    const next = await nextRoundMembers();
    expect(farm.some((account) => next.has(account))).toBe(false);
    const audit = await db()
      .selectFrom('operator_audit')
      .select(['action', 'detail'])
      .where('action', '=', 'rewards.void')
      .execute();
    expect(audit).toHaveLength(1);
  });

  it('holds a referrer’s credits past the daily cap for review', async () => {
    const referrer = await joinFrom('198.18.0.1');
    const friends: string[] = [];
    for (let i = 0; i < 4; i++) friends.push(await joinFrom(`198.18.${10 + i}.5`, referrer));
    await holdEnds(friends);
    const states = await Promise.all(friends.map(statuses));
    expect(states.slice(0, 3).every((s) => s.every((x) => x.endsWith(':released')))).toBe(true);
    expect(states[3]).toEqual(['signup:held', 'referral1:held']);
    const flags = await db()
      .selectFrom('reward_flags')
      .select('signal')
      .where('subject_id', '=', friends[3]!)
      .execute();
    expect(flags.map((f) => f.signal)).toContain('referrer_daily_cap');
    // The operator looks at everyone this referrer brought, and releases them together.
    const released = await decide({ outcome: 'release', referrer, note: 'a popular neighbour' });
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json()).toMatchObject({ subjects: 1, credits: 2 });
    expect(await statuses(friends[3]!)).toEqual(['signup:released', 'referral1:released']);
  });

  it('releases a care home’s sign-ups from one network with one decision', async () => {
    const home: string[] = [];
    for (let i = 0; i < 6; i++) home.push(await joinFrom(`100.64.7.${30 + i}`));
    await holdEnds(home);
    const stillHeld = (await Promise.all(home.map(statuses))).filter((s) =>
      s.some((x) => x.endsWith(':held')),
    );
    expect(stillHeld.length).toBeGreaterThan(0);
    const released = await decide({
      outcome: 'release',
      network: '100.64.7.0/24',
      note: 'care home',
    });
    expect(released.statusCode, released.body).toBe(200);
    for (const member of home) expect(await statuses(member)).toEqual(['signup:released']);
    const next = await nextRoundMembers();
    expect(home.every((member) => next.has(member))).toBe(true);
  });

  it('voids the held credits a deleted account gave its referrers', async () => {
    const referrer = await joinFrom('198.19.1.1');
    const friend = await joinFrom('198.19.200.1', referrer);
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/account',
      headers: { cookie: await signedInCookie(t.app, keysOf.get(friend)!), origin: ORIGIN },
      payload: { authSecret: keysOf.get(friend)!.authSecret },
    });
    expect(res.statusCode, res.body).toBe(200);
    const given = await db()
      .selectFrom('reward_ledger')
      .select(['kind', 'status'])
      .where('user_id', '=', referrer)
      .orderBy('id')
      .execute();
    expect(given).toEqual([
      { kind: 'signup', status: 'held' },
      { kind: 'referral', status: 'void' },
    ]);
    await holdEnds([referrer, friend]);
    expect(await balances(referrer)).toEqual({ caps: 200 });
  });

  it('flags the members whose wallets sent REME to one outside address, and their referrer: their pending credits wait, and the sponsor never pays for them', async () => {
    const referrer = await joinFrom('198.21.0.1');
    const senders: string[] = [];
    for (let i = 0; i < 3; i++) senders.push(await joinFrom(`198.21.${10 + i}.1`, referrer));
    await holdEnds([referrer, ...senders]);
    expect((await publishOnce(t.services)).outcome).toBe('published');
    // A friend of the first joins: their credits are held, as any new joining's are.
    const later = await joinFrom('198.21.99.1', senders[0]);

    const sink = '0x000000000000000000000000000000000000c0de';
    const token = String(t.services.chain.token.target);
    const distributor = String(t.services.chain.distributor.target);
    for (const member of senders) {
      const keys = keysOf.get(member)!;
      const cookie = await signedInCookie(t.app, keys);
      const claim = (
        await t.app.inject({ method: 'GET', url: '/api/claim', headers: { cookie } })
      ).json() as { proof: string[]; distributedTokens: string; distributionIndex: number };
      const funded = await t.app.inject({
        method: 'POST',
        url: '/api/operator/fund',
        headers: { authorization: `Bearer ${t.services.operatorKey}` },
        payload: { address: keys.address, eth: '0.01' },
      });
      expect(funded.statusCode, funded.body).toBe(200);
      const amount = BigInt(claim.distributedTokens);
      const claimed = await sendClaim(t.app, keys.privateKey, distributor, [
        keys.address,
        amount,
        claim.proof,
        claim.distributionIndex,
      ]);
      expect(claimed.receipt?.status, JSON.stringify(claimed)).toBe('0x1');
      const moved = await sendCall(
        t.app,
        keys.privateKey,
        token,
        tokenInterface.encodeFunctionData('transfer', [sink, amount]),
      );
      expect(moved.receipt?.status, JSON.stringify(moved)).toBe('0x1');
    }
    await t.services.follower.syncNow();
    await holdEnds([later]);

    const flags = await db()
      .selectFrom('reward_flags')
      .select('subject_id')
      .where('signal', '=', 'cash_out')
      .execute();
    expect(flags.map((f) => f.subject_id).sort()).toEqual([referrer, ...senders].sort());
    // The later friend's joining pays the first sender: it waits for an operator.
    expect(await statuses(later)).toEqual(['signup:held', 'referral1:held', 'referral2:held']);
    expect(await held(senders[0]!)).toEqual([
      expect.objectContaining({ state: 'review', caps: 100 }),
    ]);
    const sponsored = await t.app.inject({
      method: 'GET',
      url: '/api/claim/sponsored',
      headers: { cookie: await signedInCookie(t.app, keysOf.get(senders[1]!)!) },
    });
    expect(sponsored.json()).toMatchObject({
      available: false,
      reason: 'While the community checks your rewards, you pay your own claim fee.',
    });
  });

  it('voids a joining released by time that no round has counted yet, taking its CAPs back out of the balances', async () => {
    const referrer = await joinFrom('198.22.0.1');
    const friend = await joinFrom('198.22.50.1', referrer);
    await holdEnds([referrer, friend]);
    expect(await balances(referrer)).toEqual({ caps: 300 });
    const voided = await decide({ outcome: 'void', subjects: [friend], note: 'found later' });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(voided.json()).toEqual({ subjects: 1, credits: 2 });
    expect(await statuses(friend)).toEqual(['signup:void', 'referral1:void']);
    expect(await balances(referrer)).toEqual({ caps: 200 });
    expect(await balances(friend)).toEqual({ caps: 0 });
    expect((await nextRoundMembers()).has(friend)).toBe(false);
  });

  it('flags a joining whose member never opened the app after the confirmation link signed them in — a weight that alone holds nothing', async () => {
    const opened = await joinFrom('198.51.100.91', undefined, { screen: '390x844' });
    const silent = await joinFrom('198.51.100.92', undefined, {
      opensApp: false,
      screen: '360x800',
    });
    await holdEnds([opened, silent]);
    const flags = await db()
      .selectFrom('reward_flags')
      .select(['subject_id', 'signal', 'weight'])
      .where('subject_id', 'in', [opened, silent])
      .execute();
    expect(flags).toEqual([{ subject_id: silent, signal: 'never_opened', weight: 1 }]);
    expect(await statuses(opened)).toEqual(['signup:released']);
    expect(await statuses(silent)).toEqual(['signup:released']);

    // With one more signal of its own it waits for an operator, who reads why.
    const first = await joinFrom('198.51.100.93', undefined, { screen: '1x1' });
    const twin = await joinFrom('198.51.100.94', undefined, { opensApp: false, screen: '1x1' });
    await sql`INSERT INTO reward_flags (subject_id, signal, weight, detail)
              VALUES (${twin}, 'same_device_class', 1, 'test')`.execute(db());
    await holdEnds([first, twin]);
    expect(await statuses(twin)).toEqual(['signup:held']);
    const queue = (await review()).json() as {
      subjects: Array<{ id: string; flags: Array<{ signal: string; reason: string }> }>;
    };
    expect(queue.subjects.find((s) => s.id === twin)?.flags).toContainEqual(
      expect.objectContaining({
        signal: 'never_opened',
        reason: 'Never opened the app after confirming their address',
      }),
    );
  });

  it('refuses a decision without a note, with two targets, or from a member', async () => {
    expect((await decide({ outcome: 'release', network: 'x', note: '' })).statusCode).toBe(400);
    expect(
      (await decide({ outcome: 'void', network: 'x', referrer: 'y', note: 'n' })).statusCode,
    ).toBe(400);
    const member = await joinFrom('198.20.0.1');
    const asMember = await t.app.inject({
      method: 'POST',
      url: '/api/console/review/decide',
      headers: { cookie: await signedInCookie(t.app, keysOf.get(member)!), origin: ORIGIN },
      payload: { outcome: 'release', subjects: [member], note: 'mine' },
    });
    expect(asMember.statusCode).toBe(403);
    expect(await statuses(member)).toEqual(['signup:held']);
  });
});
