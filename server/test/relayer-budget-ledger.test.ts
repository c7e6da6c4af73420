// The day's sponsor budget is a ledger that deleting an account does not touch
// (docs/security.md#sponsored-claims): members who have their claim paid and then delete their
// account still count against SPONSOR_DAILY_BUDGET_ETH, so claim-and-delete cannot make the relayer
// spend past it; the claim that would pass it is refused as any claim over budget is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneMemberKeys, joinAndConfirm, makeMemberKeys, signedInCookie } from './helpers/members';
import {
  askSponsoredClaim,
  deleteAccount,
  latestSponsoredClaim,
  type SignedInMember,
} from './helpers/sponsored-claim';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

/** About three sponsored claims' worth on a fresh embedded chain (each reserves ~0.00012 ETH and
 * costs ~0.00009 once paid); the test does not depend on how many fit, only that some do. */
const BUDGET_WEI = 350_000_000_000_000n;
const MEMBERS = 7;

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({
    env: {
      SPONSOR_CLAIMS: 'true',
      RELAYER_BATCH_WAIT_MS: '0',
      SPONSOR_DAILY_BUDGET_ETH: '0.00035',
    },
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const operator = () => ({ authorization: `Bearer ${t.services.operatorKey}` });
const relayerStatus = async () =>
  (await t.app.inject({ method: 'GET', url: '/api/operator/relayer', headers: operator() })).json()
    .spentToday as string;
/** What the relayer's mined transactions really cost. */
const relayerCost = async () =>
  (
    await t.services.database.db
      .selectFrom('relayer_transactions')
      .select('cost_wei')
      .where('status', '=', 'mined')
      .execute()
  ).reduce((sum, r) => sum + BigInt(r.cost_wei ?? 0), 0n);

describe(`the day's sponsor budget (${testDbKind})`, () => {
  it('members who have their claim paid and then delete their account still count against the day’s budget; the claim past it is refused', async () => {
    const base = await makeMemberKeys();
    const members: SignedInMember[] = [];
    for (let i = 0; i < MEMBERS; i++) {
      const keys = await cloneMemberKeys(base);
      await joinAndConfirm(t.app, t.services.database.db, keys);
      members.push({ keys, cookie: await signedInCookie(t.app, keys) });
    }
    const published = await t.app.inject({
      method: 'POST',
      url: '/api/operator/distributions',
      headers: operator(),
    });
    expect(published.statusCode, published.body).toBe(200);

    let paidAndDeleted = 0;
    let refused: { code: string; message: string } | undefined;
    for (const m of members) {
      const asked = await askSponsoredClaim(t, m);
      if (asked.statusCode === 409) {
        refused = asked.json();
        break;
      }
      expect(asked.statusCode, asked.body).toBe(202);
      await t.services.relayer!.passNow();
      expect(await latestSponsoredClaim(t, m)).toMatchObject({ status: 'confirmed' });
      expect((await deleteAccount(t, m)).statusCode).toBe(200);
      paidAndDeleted += 1;
      // The deleted member's spend is still the day's.
      expect(BigInt(await relayerStatus())).toBe(await relayerCost());
    }

    expect(paidAndDeleted).toBeGreaterThan(0);
    expect(refused?.code).toBe('sponsor_unavailable');
    expect(refused?.message).toBe(
      "Today's budget for paying members' fees is used up. It renews at midnight (UTC). You can still claim by paying the network fee yourself.",
    );
    expect(await relayerCost()).toBeLessThanOrEqual(BUDGET_WEI);
  }, 120_000);
});
