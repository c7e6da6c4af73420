// Sponsored claims on the embedded chain: a member with no ETH signs a claim request,
// the relayer pays the fee in a batch, the REME arrives and the spend is recorded; and every abuse
// (wrong signature, another member's claim, an old round, twice, expired, over budget) is refused
// with a clear message and costs the sponsor nothing.
import {
  claimRequestDomain,
  claimRequestTypes,
  CLAIM_REQUEST_LIFETIME_S,
  type ClaimRequest,
} from '@crw/core';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
let base: MemberKeys;

beforeAll(async () => {
  t = await buildTestApp({ env: { SPONSOR_CLAIMS: 'true', RELAYER_BATCH_WAIT_MS: '0' } });
  base = await makeMemberKeys();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const operator = () => ({ authorization: `Bearer ${t.services.operatorKey}` });
const publish = async () => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/operator/distributions',
    headers: operator(),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { index: number };
};

async function member(): Promise<{ keys: MemberKeys; cookie: string }> {
  const keys = await cloneMemberKeys(base);
  await joinAndConfirm(t.app, t.services.database.db, keys);
  return { keys, cookie: await signedInCookie(t.app, keys) };
}

async function signedRequest(
  cookie: string,
  privateKey: string,
  change: Partial<ClaimRequest> = {},
) {
  const me = (
    await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })
  ).json() as { wallet: { address: string } };
  const claim = (
    await t.app.inject({ method: 'GET', url: '/api/claim', headers: { cookie } })
  ).json() as { distributedTokens: string; distributionIndex: number };
  const request: ClaimRequest = {
    account: me.wallet.address,
    cumulativeAmount: claim.distributedTokens,
    round: claim.distributionIndex,
    deadline: Math.floor(Date.now() / 1000) + CLAIM_REQUEST_LIFETIME_S,
    ...change,
  };
  const domain = claimRequestDomain(
    t.services.chain.chainId,
    String(t.services.chain.distributor.target),
  );
  const signature = await new Wallet(privateKey).signTypedData(domain, claimRequestTypes, request);
  return { ...request, signature };
}

const ask = (cookie: string, body: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/api/claim/sponsored',
    headers: { cookie, origin: ORIGIN },
    payload: body as object,
  });
const rows = () =>
  t.services.database.db.selectFrom('sponsored_claims').select(['id', 'status']).execute();
const relayerTxs = () =>
  t.services.database.db.selectFrom('relayer_transactions').select(['nonce', 'status']).execute();

describe(`sponsored claims (${testDbKind})`, () => {
  it('a member with no ETH claims: queued, sent in a batch, confirmed; the REME arrives; the spend is recorded', async () => {
    const { keys, cookie } = await member();
    await publish();
    expect(await t.services.chain.provider.getBalance(keys.address)).toBe(0n);
    const before = (
      await t.app.inject({ method: 'GET', url: '/api/claim/sponsored', headers: { cookie } })
    ).json();
    expect(before).toEqual({ available: true, reason: null, latest: null });

    const res = await ask(cookie, await signedRequest(cookie, keys.privateKey));
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({
      status: 'queued',
      amount: '200000000000000000000',
      txHash: null,
    });
    await t.services.relayer!.passNow();

    const after = (
      await t.app.inject({ method: 'GET', url: '/api/claim/sponsored', headers: { cookie } })
    ).json();
    expect(after.latest).toMatchObject({ status: 'confirmed', reason: null });
    expect(after.latest.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await t.services.chain.token.getFunction('balanceOf')(keys.address)).toBe(
      200n * 10n ** 18n,
    );
    await t.services.follower.syncNow();
    const me = (
      await t.app.inject({
        method: 'GET',
        url: '/api/me',
        headers: { cookie, 'cache-control': 'no-cache' },
      })
    ).json();
    expect(me.tokens).toMatchObject({
      claimed: '200000000000000000000',
      remeHeld: '200000000000000000000',
      forClaiming: '0',
    });
    expect(await t.services.chain.provider.getBalance(keys.address)).toBe(0n);

    const status = (
      await t.app.inject({ method: 'GET', url: '/api/operator/relayer', headers: operator() })
    ).json();
    expect(status).toMatchObject({
      enabled: true,
      queue: { confirmed: 1, queued: 0, sent: 0, failed: 0 },
      transactions: { mined: 1, pending: 0 },
    });
    expect(BigInt(status.spentToday)).toBeGreaterThan(0n);
    expect(BigInt(status.transactions.costWei)).toBe(BigInt(status.spentToday));
    const claim = await t.services.database.db
      .selectFrom('sponsored_claims')
      .select(['spent_wei'])
      .executeTakeFirstOrThrow();
    expect(claim.spent_wei).toBe(status.transactions.costWei);
  });

  it('refuses, with a clear message and at no cost: a wrong signature, another member’s claim, an old round, expired, twice in a row', async () => {
    const a = await member();
    const b = await member();
    await publish();
    const claimsBefore = (await rows()).length;
    const txsBefore = (await relayerTxs()).length;

    const stranger = Wallet.createRandom().privateKey;
    const wrongKey = await ask(a.cookie, await signedRequest(a.cookie, stranger));
    expect(wrongKey.statusCode).toBe(400);
    expect(wrongKey.json()).toEqual({
      code: 'invalid_claim_signature',
      message: 'Your claim could not be confirmed with your wallet. Please try again.',
    });

    // B's own signed request, sent with A's session: the claim is not A's.
    const forB = await ask(a.cookie, await signedRequest(b.cookie, b.keys.privateKey));
    expect(forB.statusCode).toBe(400);
    expect(forB.json()).toEqual({
      code: 'invalid_claim',
      message: 'This claim is not for your wallet.',
    });

    const amountChanged = await ask(
      a.cookie,
      await signedRequest(a.cookie, a.keys.privateKey, {
        cumulativeAmount: '999000000000000000000',
      }),
    );
    expect(amountChanged.statusCode).toBe(400);
    expect(amountChanged.json().code).toBe('invalid_claim');

    const oldRound = await ask(
      a.cookie,
      await signedRequest(a.cookie, a.keys.privateKey, { round: 1 }),
    );
    expect(oldRound.statusCode).toBe(409);
    expect(oldRound.json()).toEqual({
      code: 'stale_round',
      message: 'A new distribution round was published. Reload the page and claim again.',
    });

    const expired = await ask(
      a.cookie,
      await signedRequest(a.cookie, a.keys.privateKey, {
        deadline: Math.floor(Date.now() / 1000) - 1,
      }),
    );
    expect(expired.statusCode).toBe(400);
    expect(expired.json().code).toBe('claim_request_expired');

    const tampered = await signedRequest(a.cookie, a.keys.privateKey);
    const altered = await ask(a.cookie, { ...tampered, deadline: tampered.deadline + 1 });
    expect(altered.json().code).toBe('invalid_claim_signature');

    expect((await ask(a.cookie, { account: a.keys.address, signature: '0x12' })).statusCode).toBe(
      400,
    );
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/claim/sponsored',
          payload: await signedRequest(a.cookie, a.keys.privateKey),
        })
      ).statusCode,
    ).toBe(401);

    expect((await rows()).length).toBe(claimsBefore);
    const first = await ask(a.cookie, await signedRequest(a.cookie, a.keys.privateKey));
    expect(first.statusCode).toBe(202);
    const again = await ask(a.cookie, await signedRequest(a.cookie, a.keys.privateKey));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      code: 'claim_in_progress',
      message: 'Your claim is already on its way.',
    });
    expect((await rows()).length).toBe(claimsBefore + 1);
    // The refused requests cost nothing: at most the one queued claim's batch went out (the
    // relayer, woken at once by RELAYER_BATCH_WAIT_MS=0, may already have sent it on a loaded
    // machine).
    expect((await relayerTxs()).length).toBeLessThanOrEqual(txsBefore + 1);

    await t.services.relayer!.passNow();
    const paidTwice = await ask(a.cookie, await signedRequest(a.cookie, a.keys.privateKey));
    expect(paidTwice.statusCode).toBe(409);
    expect(['claim_in_progress', 'nothing_to_claim']).toContain(paidTwice.json().code);
    expect((await relayerTxs()).length).toBe(txsBefore + 1);
  });
});

describe(`the sponsor's limits (${testDbKind})`, () => {
  it('beyond the day’s budget the member is told to pay the fee, and nothing is queued', async () => {
    const tight = await buildTestApp({
      env: { SPONSOR_CLAIMS: 'true', SPONSOR_DAILY_BUDGET_ETH: '0.000000001' },
    });
    try {
      const keys = await cloneMemberKeys(base);
      await joinAndConfirm(tight.app, tight.services.database.db, keys);
      const cookie = await signedInCookie(tight.app, keys);
      await tight.app.inject({
        method: 'POST',
        url: '/api/operator/distributions',
        headers: { authorization: `Bearer ${tight.services.operatorKey}` },
      });
      const offer = (
        await tight.app.inject({ method: 'GET', url: '/api/claim/sponsored', headers: { cookie } })
      ).json();
      expect(offer).toMatchObject({
        available: false,
        reason: "Today's budget for paying members' fees is used up. It renews at midnight (UTC).",
      });
      const claim = (
        await tight.app.inject({ method: 'GET', url: '/api/claim', headers: { cookie } })
      ).json();
      const request: ClaimRequest = {
        account: keys.address,
        cumulativeAmount: claim.distributedTokens,
        round: claim.distributionIndex,
        deadline: Math.floor(Date.now() / 1000) + 600,
      };
      const domain = claimRequestDomain(
        tight.services.chain.chainId,
        String(tight.services.chain.distributor.target),
      );
      const signature = await new Wallet(keys.privateKey).signTypedData(
        domain,
        claimRequestTypes,
        request,
      );
      const res = await tight.app.inject({
        method: 'POST',
        url: '/api/claim/sponsored',
        headers: { cookie, origin: ORIGIN },
        payload: { ...request, signature },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('sponsor_unavailable');
      expect(res.json().message).toContain(
        'You can still claim by paying the network fee yourself.',
      );
      expect(
        await tight.services.database.db.selectFrom('sponsored_claims').select('id').execute(),
      ).toEqual([]);
    } finally {
      await tight.close();
    }
  });

  it('the operator funds and watches the relayer: CLI API, /metrics, and a warning in the log when it runs low', async () => {
    const low = await buildTestApp({
      env: { SPONSOR_CLAIMS: 'true', RELAYER_LOW_BALANCE_ETH: '1000' },
    });
    try {
      const key = { authorization: `Bearer ${low.services.operatorKey}` };
      expect(
        (await low.app.inject({ method: 'GET', url: '/api/operator/relayer' })).statusCode,
      ).toBe(401);
      expect(
        (
          await low.app.inject({
            method: 'POST',
            url: '/api/operator/relayer/fund',
            headers: { authorization: 'Bearer wrong' },
            payload: { eth: '1' },
          })
        ).statusCode,
      ).toBe(401);
      expect(
        (
          await low.app.inject({
            method: 'POST',
            url: '/api/operator/relayer/fund',
            headers: key,
            payload: { eth: '-1' },
          })
        ).statusCode,
      ).toBe(400);
      await low.services.relayer!.passNow();
      expect(low.logs).toContainEqual(
        expect.objectContaining({
          level: 40,
          msg: 'relayer: its ETH is running low; top it up with `npm run ops -- fund-relayer --eth <amount>`',
        }),
      );
      const before = (
        await low.app.inject({ method: 'GET', url: '/api/operator/relayer', headers: key })
      ).json();
      expect(before).toMatchObject({
        enabled: true,
        address: low.services.relayer!.address,
        queue: { queued: 0 },
      });
      const funded = await low.app.inject({
        method: 'POST',
        url: '/api/operator/relayer/fund',
        headers: key,
        payload: { eth: '1.5' },
      });
      expect(funded.statusCode, funded.body).toBe(200);
      expect(BigInt(funded.json().balance) - BigInt(before.balance)).toBe(
        1_500_000_000_000_000_000n,
      );
      const metrics = await low.app.inject({ method: 'GET', url: '/metrics', headers: key });
      expect(metrics.body).toMatch(/^crw_relayer_balance_wei \d/m);
      expect(metrics.body).toMatch(/^crw_relayer_spent_today_wei 0$/m);
      expect(metrics.body).toMatch(/^crw_sponsored_claims\{status="queued"\} 0$/m);
    } finally {
      await low.close();
    }
  });

  it('switched off, the claim screen is told why and a request is refused', async () => {
    const off = await buildTestApp({ env: { SPONSOR_CLAIMS: 'false' } });
    try {
      expect(off.services.relayer).toBeUndefined();
      const keys = await cloneMemberKeys(base);
      await joinAndConfirm(off.app, off.services.database.db, keys);
      const cookie = await signedInCookie(off.app, keys);
      expect(
        (
          await off.app.inject({ method: 'GET', url: '/api/claim/sponsored', headers: { cookie } })
        ).json(),
      ).toMatchObject({
        available: false,
        reason: 'This community does not pay claim fees for its members.',
      });
      const res = await off.app.inject({
        method: 'POST',
        url: '/api/claim/sponsored',
        headers: { cookie, origin: ORIGIN },
        payload: {
          account: keys.address,
          cumulativeAmount: '1',
          round: 1,
          deadline: 1,
          signature: `0x${'1'.repeat(130)}`,
        },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('sponsor_unavailable');
    } finally {
      await off.close();
    }
  });
});
