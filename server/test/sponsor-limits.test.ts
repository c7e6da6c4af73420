// Sponsored claims and farms (docs/operations.md#reward-integrity): the community's ETH pays the
// claim fee only for accounts older than SPONSOR_MIN_ACCOUNT_AGE_HOURS, never for a member whose
// joining waits for the community's check or was voided, and one client network spends at most
// SPONSOR_NETWORK_SHARE_PERCENT of the day's budget. The attack: a farm's fresh accounts turning
// their REME into claims the sponsor pays for, from one network, until the budget is gone.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';
import {
  cloneMemberKeys,
  joinAndConfirm,
  makeMemberKeys,
  ORIGIN,
  signedInCookie,
  type MemberKeys,
} from './helpers/members';

let t: TestApp;
let base: MemberKeys;

beforeAll(async () => {
  t = await buildTestApp({
    env: {
      PUBLIC_URL: ORIGIN,
      AUTH_RATE_LIMIT_PER_IP: '100000',
      SPONSOR_CLAIMS: 'true',
      REWARD_HOLD_HOURS: '72',
      SPONSOR_MIN_ACCOUNT_AGE_HOURS: '72',
      SPONSOR_NETWORK_SHARE_PERCENT: '20',
      SPONSOR_DAILY_BUDGET_ETH: '1',
      // Every member here signs up from 127.0.0.1: only the referrer's network flags.
      REWARD_BUSY_NETWORK_SIGNUPS: '1000',
    },
  });
  base = await makeMemberKeys();
}, 120_000);
afterAll(() => t?.close());

const db = () => t.services.database.db;

async function join(referralCode?: string) {
  const keys = await cloneMemberKeys(base);
  const userId = await joinAndConfirm(t.app, db(), keys, referralCode);
  return { keys, userId, cookie: await signedInCookie(t.app, keys) };
}

const age = (userId: string) =>
  sql`UPDATE profiles SET created_at = now() - interval '4 days' WHERE id = ${userId}`.execute(
    db(),
  );

async function sponsorship(cookie: string, remoteAddress = '127.0.0.1') {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/claim/sponsored',
    headers: { cookie },
    remoteAddress,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { available: boolean; reason: string | null };
}

describe(`who the sponsor pays for (${testDbKind})`, () => {
  it('a new account pays its own fee until it is old enough', async () => {
    const member = await join();
    expect(await sponsorship(member.cookie)).toEqual(
      expect.objectContaining({
        available: false,
        reason: 'New accounts pay their own claim fee for their first 72 hours.',
      }),
    );
    await age(member.userId);
    expect(await sponsorship(member.cookie)).toMatchObject({ available: true, reason: null });
  });

  it('a member whose joining waits for the community’s check, or was voided, is never sponsored', async () => {
    const referrer = await join();
    const code = (await db()
      .selectFrom('profiles')
      .select('referral_code')
      .where('id', '=', referrer.userId)
      .executeTakeFirstOrThrow())!.referral_code!;
    // Joined through the referrer's link from the referrer's own network: flagged.
    const friend = await join(code);
    await age(friend.userId);
    expect(await sponsorship(friend.cookie)).toMatchObject({
      available: false,
      reason: 'While the community checks your rewards, you pay your own claim fee.',
    });
    await sql`UPDATE reward_ledger SET status = 'void' WHERE subject_id = ${friend.userId}`.execute(
      db(),
    );
    expect((await sponsorship(friend.cookie)).available).toBe(false);
  });

  it('one network spends at most its share of the day’s budget; another network still can', async () => {
    const member = await join();
    await age(member.userId);
    // Claims from 127.0.0.0/24 already spent this day's 20 % of 1 ETH.
    await sql`INSERT INTO sponsor_spending (claim_id, created_at, wei, network)
              VALUES (-1, now(), ${(2n * 10n ** 17n).toString()}, '127.0.0.0/24')`.execute(db());
    expect(await sponsorship(member.cookie)).toMatchObject({
      available: false,
      reason:
        "Today's share of the fee budget for claims from your network is used up. It renews at midnight (UTC).",
    });
    expect(await sponsorship(member.cookie, '198.51.100.20')).toMatchObject({ available: true });
  });
});
