// The console's overview: the community's figures for an operator who passed two-factor
// sign-in, served from a snapshot computed at most once a minute (the snapshot's rule and the
// search for each day's first block, on their own: unit/console-overview-snapshot.test.ts).
import { randomUUID } from 'node:crypto';
import { REFERRAL_CAPS_BY_LEVEL, SIGNUP_CAPS, type ClaimData } from '@crw/core';
import { consoleOverviewResponse, OVERVIEW_DAYS, type ConsoleOverview } from '@crw/core/console';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_TREASURY } from '../src/infra/chain/chain';
import { sendClaim } from './helpers/chain-client';
import {
  cloneMemberKeys,
  joinAndConfirm,
  makeMemberKeys,
  ORIGIN,
  registerBody,
  signedInCookie,
  type MemberKeys,
} from './helpers/members';
import { consoleOperatorCookie } from './helpers/console-operator';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

let t: TestApp;
let base: MemberKeys;
let a: MemberKeys;
let aCookie: string;
let memberCookie: string;
let consoleCookie: string;
let careCaps: number;

const bearer = () => ({ authorization: `Bearer ${t.services.operatorKey}` });
const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { origin: ORIGIN, ...headers },
    payload: payload as object,
  });

/** Grants the role, enrols two-factor and signs in again through the code: the console's cookie. */

beforeAll(async () => {
  t = await buildTestApp({
    env: {
      PUBLIC_URL: ORIGIN,
      AUTH_RATE_LIMIT_PER_IP: '500',
      AUTH_RATE_LIMIT_PER_EMAIL: '50',
      SPONSOR_CLAIMS: 'true',
    },
  });
  const db = t.services.database.db;
  base = await makeMemberKeys();
  const operator = await cloneMemberKeys(base);
  consoleCookie = await consoleOperatorCookie(t.app, db, operator, t.services.operatorKey);
  // a, b (brought in by a), c; and d, who registered but has not confirmed.
  a = await cloneMemberKeys(base);
  const aId = await joinAndConfirm(t.app, db, a);
  aCookie = await signedInCookie(t.app, a);
  const aCode = (
    await db.selectFrom('profiles').select('referral_code').where('id', '=', aId).executeTakeFirst()
  )?.referral_code;
  await joinAndConfirm(t.app, db, await cloneMemberKeys(base), aCode ?? undefined);
  const c = await cloneMemberKeys(base);
  const cId = await joinAndConfirm(t.app, db, c);
  memberCookie = await signedInCookie(t.app, c);
  const d = await cloneMemberKeys(base);
  expect(
    (
      await t.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: await registerBody(t.app, d),
      })
    ).statusCode,
  ).toBe(201);

  careCaps = 25;
  const credited = await post(
    `/api/console/members/${cId}/care-actions`,
    { caps: careCaps, description: 'Visited Mrs Jones' },
    { cookie: consoleCookie, 'idempotency-key': randomUUID() },
  );
  expect(credited.statusCode, credited.body).toBe(201);

  // A round, and a's claim from it.
  const round = await t.app.inject({
    method: 'POST',
    url: '/api/operator/distributions',
    headers: bearer(),
  });
  expect(round.json()).toMatchObject({ index: 1, outcome: 'published' });
  const fund = await post('/api/operator/fund', { address: a.address, eth: '0.05' }, bearer());
  expect(fund.statusCode, fund.body).toBe(200);
}, 180_000);
afterAll(() => t?.close());

describe(`GET /api/console/overview (${testDbKind})`, () => {
  it('is refused to a stranger (401) and to a member (403)', async () => {
    expect((await get('/api/console/overview')).statusCode).toBe(401);
    const member = await get('/api/console/overview', memberCookie);
    expect(member.statusCode).toBe(403);
    expect(member.json().code).toBe('not_operator');
  });

  let first: ConsoleOverview;
  let claimed: bigint;

  it('counts members, CAPs by kind, REME distributed and claimed, claims per day and balances', async () => {
    const claim = (
      await t.app.inject({ method: 'GET', url: '/api/claim', headers: { cookie: aCookie } })
    ).json() as ClaimData;
    claimed = BigInt(claim.distributedTokens);
    const done = await sendClaim(t.app, a.privateKey, String(t.services.chain.distributor.target), [
      a.address,
      claimed,
      claim.proof,
      claim.distributionIndex,
    ]);
    expect(done.receipt?.status).toBe('0x1');

    const res = await get('/api/console/overview', consoleCookie);
    expect(res.statusCode, res.body).toBe(200);
    first = consoleOverviewResponse.parse(res.json());
    const total = (
      await t.services.database.db
        .selectFrom('distribution_rounds')
        .select('total')
        .where('round_index', '=', 1)
        .executeTakeFirstOrThrow()
    ).total;

    const signup = 4 * SIGNUP_CAPS;
    const referral = REFERRAL_CAPS_BY_LEVEL[0];
    expect(first.totals).toEqual({
      members: 5,
      confirmed: 4,
      capsIssued: { signup, referral, careAction: careCaps, total: signup + referral + careCaps },
      remeDistributed: String(total),
      latestRound: 1,
      remeClaimed: claimed.toString(),
    });
    expect(Math.abs(Date.parse(first.asOf) - Date.now())).toBeLessThan(60_000);

    expect(first.days).toHaveLength(OVERVIEW_DAYS);
    expect(first.days.at(-1)!.date).toBe(first.asOf.slice(0, 10));
    const sum = (pick: (d: ConsoleOverview['days'][number]) => number | null) =>
      first.days.reduce((n, d) => n + (pick(d) ?? 0), 0);
    expect(sum((d) => d.joined)).toBe(5);
    expect(sum((d) => d.confirmed)).toBe(4);
    expect(sum((d) => d.caps.signup)).toBe(signup);
    expect(sum((d) => d.caps.referralLevel1)).toBe(referral);
    expect(sum((d) => d.caps.referralLevel2 + d.caps.referralLevel3)).toBe(0);
    expect(sum((d) => d.caps.careAction)).toBe(careCaps);
    expect(first.days.every((d) => d.claims !== null)).toBe(true);
    expect(sum((d) => d.claims)).toBe(1);

    const b = first.balances;
    expect(b.distributorAddress.toLowerCase()).toBe(
      String(t.services.chain.distributor.target).toLowerCase(),
    );
    expect(b.treasuryAddress).toBe(t.services.chain.operator.address);
    expect(b.treasuryReme).toBe((DEV_TREASURY - BigInt(total)).toString());
    expect(b.distributorReme).toBe((BigInt(total) - claimed).toString());
    expect(b.treasuryEth).toMatch(/^\d+$/);
    expect(b.relayerAddress === null).toBe(b.relayerEth === null);
    if (b.relayerEth !== null) expect(BigInt(b.relayerEth)).toBeGreaterThan(0n);
  });

  it('serves a second request within the minute from the snapshot', async () => {
    await joinAndConfirm(t.app, t.services.database.db, await cloneMemberKeys(base));
    const again = await get('/api/console/overview', consoleCookie);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first);
    expect(t.logs.filter((l) => l.msg === 'console overview: figures computed')).toHaveLength(1);
  });
});
