// The claim screen's ETH balance (GET /api/claim/fee-balance) asks the node, so it is shared: one
// read per wallet per FEE_BALANCE_CACHE_MS (requests at the same moment share it), dropped when the
// embedded chain mines, and at most FEE_BALANCE_RATE_LIMIT_PER_MINUTE asks per member
// (docs/security.md#limits-proxies-files-logs).
import { toQuantity } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cloneMemberKeys,
  joinAndConfirm,
  makeMemberKeys,
  signedInCookie,
  type MemberKeys,
} from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';
import { until } from './helpers/until';

const LIMIT = 20;
let base: MemberKeys;
beforeAll(async () => {
  base = await makeMemberKeys();
}, 60_000);

async function member(t: TestApp) {
  const keys = await cloneMemberKeys(base);
  await joinAndConfirm(t.app, t.services.database.db, keys);
  return { keys, cookie: await signedInCookie(t.app, keys) };
}

const feeBalance = (t: TestApp, cookie: string) =>
  t.app.inject({ method: 'GET', url: '/api/claim/fee-balance', headers: { cookie } });

const balanceReads = (t: TestApp) => t.services.chain.node.calls.byMethod.eth_getBalance ?? 0;

describe(`the fee balance, read once for many asks (${testDbKind})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    // No relayer: nothing else reads a balance from the node while the test counts.
    t = await buildTestApp({
      env: {
        SPONSOR_CLAIMS: 'false',
        FEE_BALANCE_CACHE_MS: '300000',
        FEE_BALANCE_RATE_LIMIT_PER_MINUTE: String(LIMIT),
      },
    });
  }, 60_000);
  afterAll(() => t?.close());

  it('asks the node once for a burst of asks from one session, then answers 429 past the limit', async () => {
    const { cookie } = await member(t);
    const before = balanceReads(t);
    const burst = await Promise.all(Array.from({ length: LIMIT / 2 }, () => feeBalance(t, cookie)));
    for (let i = 0; i < LIMIT / 2; i++) burst.push(await feeBalance(t, cookie));
    expect(burst.map((r) => r.statusCode)).toEqual(Array(LIMIT).fill(200));
    expect(new Set(burst.map((r) => r.body))).toEqual(new Set(['{"ethBalance":"0"}']));
    expect(balanceReads(t) - before).toBe(1);

    const over = await feeBalance(t, cookie);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({
      code: 'rate_limited',
      message: 'Too many attempts. Please wait a moment and try again.',
    });
    expect(balanceReads(t) - before).toBe(1);
  });

  it('limits each member on their own, and reads each wallet on its own', async () => {
    const a = await member(t);
    const b = await member(t);
    const before = balanceReads(t);
    for (let i = 0; i < LIMIT; i++) expect((await feeBalance(t, a.cookie)).statusCode).toBe(200);
    expect((await feeBalance(t, a.cookie)).statusCode).toBe(429);
    expect((await feeBalance(t, b.cookie)).statusCode).toBe(200);
    expect(balanceReads(t) - before).toBe(2);
  });

  it('reads again once the embedded chain has mined (the member may have been sent ETH)', async () => {
    const { keys, cookie } = await member(t);
    expect((await feeBalance(t, cookie)).json()).toEqual({ ethBalance: '0' });
    const funded = await t.app.inject({
      method: 'POST',
      url: '/api/operator/fund',
      headers: { authorization: `Bearer ${t.services.operatorKey}` },
      payload: { address: keys.address, eth: '0.01' },
    });
    expect(funded.statusCode, funded.body).toBe(200);
    expect((await feeBalance(t, cookie)).json()).toEqual({ ethBalance: '10000000000000000' });
  });

  it('refuses a stranger without asking the node', async () => {
    const before = balanceReads(t);
    const res = await t.app.inject({ method: 'GET', url: '/api/claim/fee-balance' });
    expect(res.statusCode).toBe(401);
    expect(balanceReads(t)).toBe(before);
  });
});

describe(`the fee balance after the cache time (${testDbKind})`, () => {
  it('shows a balance that changed without a mined transaction once its read is older than FEE_BALANCE_CACHE_MS', async () => {
    const t = await buildTestApp({
      env: {
        SPONSOR_CLAIMS: 'false',
        FEE_BALANCE_CACHE_MS: '50',
        FEE_BALANCE_RATE_LIMIT_PER_MINUTE: '1000',
      },
    });
    try {
      const { keys, cookie } = await member(t);
      expect((await feeBalance(t, cookie)).json()).toEqual({ ethBalance: '0' });
      await t.services.chain.node.request({
        method: 'hardhat_setBalance',
        params: [keys.address, toQuantity(12345n)],
      });
      await until(async () => (await feeBalance(t, cookie)).json().ethBalance === '12345', {
        timeoutMs: 10_000,
        intervalMs: 100,
        what: 'the new balance',
      });
    } finally {
      await t.close();
    }
  });
});
