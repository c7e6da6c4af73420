// Sponsored claims at scale: MEMBERS (default 1,000) members on the embedded chain each
// sign a claim request and POST it; the relayer sends them in batches of RELAYER_BATCH_SIZE
// (default 100) through claimMany. Timed from the first request to the last claim confirmed:
// claims confirmed per minute; and from the relayer's transactions: gas per claim, the sponsor's
// ETH per claim at 1 gwei. Goals: ≤ 40,000 gas per first-time claim in a batch; all 1,000 within
// 2 minutes. The app runs in this process;
// the members' sign-ups are not timed. RUNS rounds (default 1), each on a fresh install.
// Run with TEST_DB=postgres TEST_DATABASE_URL=… for PostgreSQL; PGlite otherwise. --smoke: 5
// members, one run.
import { claimRequestDomain, claimRequestTypes, CLAIM_REQUEST_LIFETIME_S } from '@crw/core';
import { Wallet, formatEther, parseUnits } from 'ethers';
import {
  cloneMemberKeys,
  makeMemberKeys,
  ORIGIN,
  registerBody,
  signIn,
  cookieOf,
} from '@crw/server/testing/members';
import { buildTestApp } from '@crw/server/testing/app';
import { median, sized } from './lib/harness';
import { publishThroughOperatorApi } from './lib/rounds';

const MEMBERS = sized(Number(process.env.MEMBERS ?? 1_000), 5);
const BATCH = process.env.RELAYER_BATCH_SIZE ?? '100';
const runs = sized(Number(process.env.RUNS ?? 1), 1);
const CONCURRENCY = 20;

async function pool<T>(items: T[], work: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i]!, i);
      }
    }),
  );
}

interface RunFigures {
  seconds: number;
  perMinute: number;
  gasPerClaim: number;
  batches: number;
  ethPerClaimAt1Gwei: string;
  spentWei: bigint;
}

async function run(): Promise<RunFigures> {
  const t = await buildTestApp({
    env: {
      REQUIRE_EMAIL_CONFIRMATION: 'false',
      AUTH_RATE_LIMIT_PER_IP: '1000000',
      AUTH_RATE_LIMIT_PER_EMAIL: '1000',
      RELAYER_BATCH_SIZE: BATCH,
      RELAYER_BATCH_WAIT_MS: '250',
      SPONSOR_DAILY_BUDGET_ETH: '100',
      LOG_LEVEL: 'warn',
    },
  });
  try {
    const base = await makeMemberKeys();
    const members: Array<{ keys: Awaited<ReturnType<typeof cloneMemberKeys>>; cookie: string }> =
      [];
    const started = Date.now();
    await pool(Array.from({ length: MEMBERS }), async () => {
      const keys = await cloneMemberKeys(base);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: await registerBody(t.app, keys),
      });
      if (res.statusCode !== 201) throw new Error(`register: ${res.statusCode} ${res.body}`);
      const signedIn = await signIn(t.app, keys.email, keys.authSecret);
      members.push({ keys, cookie: cookieOf(signedIn.headers['set-cookie']) });
    });
    const round = await publishThroughOperatorApi(t);
    console.log(
      `  ${MEMBERS} members signed up and in round ${round} (${((Date.now() - started) / 1000).toFixed(0)} s, not timed)`,
    );

    const domain = claimRequestDomain(
      t.services.chain.chainId,
      String(t.services.chain.distributor.target),
    );
    const signed = await Promise.all(
      members.map(async ({ keys, cookie }) => {
        const answer = await t.app.inject({
          method: 'GET',
          url: '/api/claim',
          headers: { cookie },
        });
        if (answer.statusCode !== 200)
          throw new Error(`claim data: ${answer.statusCode} ${answer.body}`);
        const claim = answer.json() as { distributedTokens: string };
        const request = {
          account: keys.address,
          cumulativeAmount: claim.distributedTokens,
          round,
          deadline: Math.floor(Date.now() / 1000) + CLAIM_REQUEST_LIFETIME_S,
        };
        return {
          cookie,
          body: {
            ...request,
            signature: await new Wallet(keys.privateKey).signTypedData(
              domain,
              claimRequestTypes,
              request,
            ),
          },
        };
      }),
    );

    const db = t.services.database.db;
    const t0 = Date.now();
    await pool(signed, async ({ cookie, body }) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/claim/sponsored',
        headers: { cookie, origin: ORIGIN },
        payload: body,
      });
      if (res.statusCode !== 202) throw new Error(`request: ${res.statusCode} ${res.body}`);
    });
    const queuedIn = (Date.now() - t0) / 1000;
    for (;;) {
      const left = await db
        .selectFrom('sponsored_claims')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '<>', 'confirmed')
        .executeTakeFirstOrThrow();
      const failed = await db
        .selectFrom('sponsored_claims')
        .select('id')
        .where('status', '=', 'failed')
        .execute();
      if (failed.length > 0) throw new Error(`${failed.length} claims failed`);
      if (Number(left.n) === 0) break;
      if (Date.now() - t0 > 600_000) throw new Error('not all confirmed within 10 minutes');
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (Date.now() - t0) / 1000;
    const txs = await db
      .selectFrom('relayer_transactions')
      .select(['gas_used', 'cost_wei', 'status'])
      .execute();
    if (txs.some((tx) => tx.status !== 'mined'))
      throw new Error('a relayer transaction did not mine');
    const gas = txs.reduce((sum, tx) => sum + Number(tx.gas_used), 0);
    const spentWei = txs.reduce((sum, tx) => sum + BigInt(tx.cost_wei ?? 0), 0n);
    // Every member paid, once.
    const paid = await Promise.all(
      members
        .slice(0, 20)
        .map(
          ({ keys }) =>
            t.services.chain.token.getFunction('balanceOf')(keys.address) as Promise<bigint>,
        ),
    );
    if (paid.some((b) => b !== 200n * 10n ** 18n))
      throw new Error('a member was not paid 200 REME');
    const gasPerClaim = gas / MEMBERS;
    console.log(
      `  requests accepted in ${queuedIn.toFixed(1)} s; all confirmed in ${seconds.toFixed(1)} s; ${txs.length} batch transactions`,
    );
    return {
      seconds,
      perMinute: (MEMBERS / seconds) * 60,
      gasPerClaim,
      batches: txs.length,
      ethPerClaimAt1Gwei: formatEther(BigInt(Math.round(gasPerClaim)) * parseUnits('1', 'gwei')),
      spentWei,
    };
  } finally {
    await t.close();
  }
}

console.log(
  `Sponsored claims: ${MEMBERS} members, batches of ${BATCH}, embedded chain, ${runs} run(s)`,
);
const all: RunFigures[] = [];
for (let i = 1; i <= runs; i++) {
  const figures = await run();
  all.push(figures);
  console.log(
    `run ${i}: ${figures.gasPerClaim.toFixed(0)} gas per claim (${figures.batches} batches), ${figures.perMinute.toFixed(0)} claims confirmed per minute (${figures.seconds.toFixed(1)} s for all), sponsor ${figures.ethPerClaimAt1Gwei} ETH per claim at 1 gwei (spent on the embedded chain: ${formatEther(figures.spentWei)} ETH)`,
  );
}
console.log(
  `\nmedian: ${median(all.map((f) => f.gasPerClaim)).toFixed(0)} gas per claim (goal ≤ 40,000), all ${MEMBERS} confirmed in ${median(all.map((f) => f.seconds)).toFixed(1)} s (goal ≤ 120 s), ${median(all.map((f) => f.perMinute)).toFixed(0)} per minute`,
);
process.exit(0);
