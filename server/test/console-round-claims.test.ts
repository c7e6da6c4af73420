// The console's rounds history says what became of the latest rounds' REME (issue 30): members who
// claimed themselves (through the chain), were claimed for ("claim for me", sent and paid by the
// relayer), were reminded, and have not claimed yet; counted once a minute at most, for the latest
// three published rounds only (older: null); refused to a member.
import { COUNTED_ROUNDS, roundHistoryResponse, type RoundClaims } from '@crw/core/console';
import type { ClaimData } from '@crw/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noticesPass } from '../src/domain/notifications/round-notices';
import { claimForMeSponsor } from '../src/services';
import { sendClaim } from './helpers/chain-client';
import { consoleOperatorCookie } from './helpers/console-operator';
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
import { until } from './helpers/until';

let t: TestApp;
let base: MemberKeys;
let consoleCookie: string;
let operatorId: string;
let self: MemberKeys;
let selfCookie: string;
let forMeId: string;
let waitingId: string;

const db = () => t.services.database.db;
const bearer = () => ({ authorization: `Bearer ${t.services.operatorKey}` });
const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const history = async () => {
  const res = await get('/api/console/rounds', consoleCookie);
  expect(res.statusCode, res.body).toBe(200);
  return roundHistoryResponse.parse(res.json()).rounds;
};
const claimsOf = async (index: number) => (await history()).find((r) => r.index === index)!.claims;
const figures = (c: RoundClaims | null) =>
  c && {
    claimedThemselves: c.claimedThemselves,
    claimedForThem: c.claimedForThem,
    reminded: c.reminded,
    notClaimed: c.notClaimed,
  };

const publish = async () => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/operator/distributions',
    headers: bearer(),
  });
  expect(res.statusCode, res.body).toBe(200);
  await t.services.follower.syncNow();
  return (res.json() as { index: number }).index;
};

/** A member joins, so the next round changes something (CAPs become REME by their sign-up). */
const newcomer = async () => {
  await joinAndConfirm(t.app, db(), await cloneMemberKeys(base));
};

beforeAll(async () => {
  t = await buildTestApp({
    env: {
      PUBLIC_URL: ORIGIN,
      AUTH_RATE_LIMIT_PER_IP: '500',
      AUTH_RATE_LIMIT_PER_EMAIL: '50',
      SPONSOR_CLAIMS: 'true',
      RELAYER_BATCH_WAIT_MS: '0',
    },
  });
  // The test runs the notices' passes itself.
  await t.services.notices.stop();
  base = await makeMemberKeys();
  const operator = await cloneMemberKeys(base);
  consoleCookie = await consoleOperatorCookie(t.app, db(), operator, t.services.operatorKey);
  operatorId = (
    await db()
      .selectFrom('profiles')
      .select('id')
      .where('email', '=', operator.email.toLowerCase())
      .executeTakeFirstOrThrow()
  ).id;
  self = await cloneMemberKeys(base);
  await joinAndConfirm(t.app, db(), self);
  selfCookie = await signedInCookie(t.app, self);
  forMeId = await joinAndConfirm(t.app, db(), await cloneMemberKeys(base));
  await db()
    .updateTable('profiles')
    .set({ claim_for_me: true })
    .where('id', '=', forMeId)
    .execute();
  waitingId = await joinAndConfirm(t.app, db(), await cloneMemberKeys(base));
}, 180_000);
afterAll(() => t?.close());

describe(`the rounds' claims in the console (${testDbKind})`, () => {
  let round: number;

  it('counts who claimed themselves, who was claimed for, who was reminded and who has not claimed', async () => {
    round = await publish();

    // One member claims through the chain, paying the fee.
    const fund = await t.app.inject({
      method: 'POST',
      url: '/api/operator/fund',
      headers: { origin: ORIGIN, ...bearer() },
      payload: { address: self.address, eth: '0.05' },
    });
    expect(fund.statusCode, fund.body).toBe(200);
    const claim = (
      await t.app.inject({ method: 'GET', url: '/api/claim', headers: { cookie: selfCookie } })
    ).json() as ClaimData;
    const sent = await sendClaim(
      t.app,
      self.privateKey,
      String(t.services.chain.distributor.target),
      [self.address, BigInt(claim.distributedTokens), claim.proof, claim.distributionIndex],
    );
    expect(sent.receipt?.status).toBe('0x1');
    await t.services.follower.syncNow();

    // Another left "claim for me" on: the relayer sends and pays the claim for them.
    const sponsor = claimForMeSponsor(t.services.config, t.services.relayer);
    expect((await noticesPass(db(), sponsor)).claimsForMe).toBe(1);
    await t.services.relayer!.passNow();
    await until(async () => {
      const c = await db()
        .selectFrom('sponsored_claims')
        .select('status')
        .where('user_id', '=', forMeId)
        .executeTakeFirstOrThrow();
      return c.status === 'confirmed';
    });
    await t.services.follower.syncNow();

    // A week later the two who have not claimed (the operator and one member) are reminded.
    await sql`UPDATE distribution_rounds SET published_at = now() - interval '8 days'
               WHERE round_index = ${round}`.execute(db());
    expect((await noticesPass(db(), sponsor)).reminders).toBe(2);
    const reminded = await db()
      .selectFrom('claim_reminders')
      .select('user_id')
      .where('round_index', '=', round)
      .execute();
    expect(reminded.map((r) => r.user_id).sort()).toEqual([operatorId, waitingId].sort());

    const first = await claimsOf(round);
    expect(figures(first)).toEqual({
      claimedThemselves: 1,
      claimedForThem: 1,
      reminded: 2,
      notClaimed: 2,
    });
    expect(Date.parse(first!.countedAt)).toBeLessThanOrEqual(Date.now());
  });

  it('keeps the count for a minute: a claim made meanwhile is not counted at once', async () => {
    const before = await claimsOf(round);
    // The operator's wallet reaches the round's amount (as the follower would record a claim).
    const entry = await db()
      .selectFrom('distribution_entries')
      .select(['wallet_address', 'cumulative_amount'])
      .where('round_index', '=', round)
      .where('user_id', '=', operatorId)
      .executeTakeFirstOrThrow();
    await sql`INSERT INTO chain_wallets (address, claimed, block_number)
              VALUES (${entry.wallet_address}, ${String(entry.cumulative_amount)}::numeric, 0)
              ON CONFLICT (address) DO UPDATE SET claimed = EXCLUDED.claimed`.execute(db());
    const cached = await claimsOf(round);
    expect(cached).toEqual(before);
  });

  it(`counts only the latest ${COUNTED_ROUNDS} published rounds; a round that gave nothing more keeps its claims`, async () => {
    const later: number[] = [];
    for (let i = 0; i < COUNTED_ROUNDS; i++) {
      await newcomer();
      later.push(await publish());
    }
    const rounds = await history();
    expect(rounds.map((r) => r.index)).toEqual([...later].reverse().concat(round));
    expect(rounds.find((r) => r.index === round)!.claims).toBeNull();
    const next = figures(rounds.find((r) => r.index === later[0])!.claims);
    // The round gave only the newcomer anything: the member claimed for keeps that claim, the two
    // whose wallets reached their amount keep theirs, and nobody was reminded of this round yet.
    expect(next).toEqual({ claimedThemselves: 2, claimedForThem: 1, reminded: 0, notClaimed: 2 });
    for (const index of later) expect(rounds.find((r) => r.index === index)!.claims).not.toBeNull();
  });

  it('is refused to a member (403) and to a stranger (401)', async () => {
    const member = await get('/api/console/rounds', selfCookie);
    expect([member.statusCode, member.json().code]).toEqual([403, 'not_operator']);
    expect((await get('/api/console/rounds')).statusCode).toBe(401);
  });
});
