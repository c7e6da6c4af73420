// Probe (security review of sponsored claims): POST /api/operator/relayer/fund answers 500 for input and
// timing the operator controls. The fuzz test's rule is "no 500" for every route as the operator;
// these two escape it because the schema accepts them and the failure comes from the chain:
// - an amount the operator's account does not hold (`eth` passes /^\d+(\.\d{1,18})?$/);
// - a fund sent while another operator transaction is being signed (a round being published, or a
//   second fund): both take the same operator nonce, one is refused by the node ("nonce has already
//   been used") and its request answers 500 — for a publish, the round is left 'sent' until the
//   operator publishes again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinAndConfirm, makeMemberKeys } from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { SPONSOR_CLAIMS: 'true' } });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const operator = () => ({ authorization: `Bearer ${t.services.operatorKey}` });
const fund = (eth: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/operator/relayer/fund',
    headers: operator(),
    payload: { eth },
  });

describe(`probe: funding the relayer (${testDbKind})`, () => {
  it('an amount larger than the operator holds is refused as a 4xx, not a 500', async () => {
    const res = await fund('99999999999999999999999999999');
    expect(res.statusCode, res.body).toBeLessThan(500);
  });

  it('two funds at once: neither answers 500', async () => {
    const results = await Promise.all([fund('0.001'), fund('0.001'), fund('0.001')]);
    expect(results.map((r) => r.statusCode)).not.toContain(500);
  });

  it('a fund while a round is published: the publish does not fail with 500', async () => {
    await joinAndConfirm(t.app, t.services.database.db, await makeMemberKeys());
    const [funded, published] = await Promise.all([
      fund('0.001'),
      t.app.inject({ method: 'POST', url: '/api/operator/distributions', headers: operator() }),
    ]);
    expect(funded.statusCode, funded.body).toBe(200);
    expect(published.statusCode, published.body).not.toBe(500);
  });
});
