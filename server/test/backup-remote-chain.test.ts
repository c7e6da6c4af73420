// A backup restored behind a chain that moved on (CHAIN_RPC_URL, a Hardhat node in its own
// process; docs/operations.md#backups): after the backup a member joined, a round was published
// and the community's relayer sent a member's claim of it. Restored, the database knows none of
// that; the chain decides: the follower counts the claim made after the backup, the next round
// follows the chain's round (whose tree the backup does not have), the relayer's next nonce comes
// from the chain, a member who had not claimed still can, and the member who claimed after the
// backup is not paid twice.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { UserDetails } from '@crw/core';
import { deployContracts } from '@crw/contracts';
import { JsonRpcProvider, Wallet, parseEther, toQuantity } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/infra/db/database';
import { sendClaim } from './helpers/chain-client';
import { askSponsoredClaim, latestSponsoredClaim } from './helpers/sponsored-claim';
import { startChainNode, type ChainNodeProcess } from './helpers/chain-node-process';
import {
  cloneMemberKeys,
  joinAndConfirm,
  makeMemberKeys,
  ORIGIN,
  signedInCookie,
  type MemberKeys,
} from './helpers/members';
import { repoRoot } from './helpers/server-process';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { createPostgresDatabase, testDbKind } from './helpers/test-database';
import { until } from './helpers/until';

let node: ChainNodeProcess;
const cleanup: Array<() => Promise<void>> = [];
beforeAll(async () => {
  node = await startChainNode();
}, 120_000);
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
  await node?.stop();
});

const reme = (n: number) => parseEther(String(n)).toString();

async function operatorCall(t: TestApp, method: 'GET' | 'POST', url: string, payload?: object) {
  return t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${t.services.operatorKey}` },
    ...(payload ? { payload } : {}),
  });
}

async function me(t: TestApp, keys: MemberKeys): Promise<UserDetails['tokens']> {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/me',
    headers: { cookie: await signedInCookie(t.app, keys), 'cache-control': 'no-cache' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as UserDetails).tokens;
}

/** Waits until `/api/claim` offers the member round `round` (the follower has seen it). */
async function offered(t: TestApp, keys: MemberKeys, round: number) {
  const cookie = await signedInCookie(t.app, keys);
  let data: { proof: string[]; distributedTokens: string; distributionIndex: number } | undefined;
  await until(
    async () => {
      data = (await t.app.inject({ method: 'GET', url: '/api/claim', headers: { cookie } })).json();
      return data!.distributionIndex === round;
    },
    { timeoutMs: 30_000, intervalMs: 200, what: `round ${round} offered to ${keys.email}` },
  );
  return { cookie, data: data! };
}

/** Claims what round `round` gives the member, paying the fee from their own wallet. */
async function claim(t: TestApp, keys: MemberKeys, distributor: string, round: number) {
  const { data } = await offered(t, keys, round);
  return sendClaim(t.app, keys.privateKey, distributor, [
    keys.address,
    BigInt(data.distributedTokens),
    data.proof,
    data.distributionIndex,
  ]);
}

/** Asks the community's relayer to send the member's claim of round `round`; its answer. */
async function sponsored(t: TestApp, keys: MemberKeys, round: number) {
  const { cookie } = await offered(t, keys, round);
  return { answer: await askSponsoredClaim(t, { keys, cookie }), cookie };
}

async function sponsoredAndConfirmed(t: TestApp, keys: MemberKeys, round: number) {
  const { answer, cookie } = await sponsored(t, keys, round);
  expect(answer.statusCode, answer.body).toBe(202);
  await until(
    async () => (await latestSponsoredClaim(t, { keys, cookie }))?.status === 'confirmed',
    { timeoutMs: 60_000, intervalMs: 250, what: `the sponsored claim of ${keys.email} confirmed` },
  );
}

describe(`a backup restored behind the chain (${testDbKind})`, () => {
  it('counts the claims made after the backup, follows the chain’s round, and pays nobody twice', async () => {
    const provider = new JsonRpcProvider(node.url, 31337, { staticNetwork: true });
    const key = Wallet.createRandom().privateKey;
    const operator = new Wallet(key, provider);
    await node.request('hardhat_setBalance', [operator.address, toQuantity(parseEther('100'))]);
    const startBlock = Number(await node.request('eth_blockNumber')) + 1;
    const contracts = await deployContracts(operator, parseEther('1000000'));
    const distributor = await contracts.distributor.getAddress();
    const relayer = Wallet.createRandom();
    await node.request('hardhat_setBalance', [relayer.address, toQuantity(parseEther('10'))]);
    const remote = {
      CHAIN_RPC_URL: node.url,
      TOKEN_ADDRESS: await contracts.token.getAddress(),
      DISTRIBUTOR_ADDRESS: distributor,
      OPERATOR_PRIVATE_KEY: key,
      CHAIN_START_BLOCK: String(startBlock),
      CHAIN_POLL_INTERVAL_MS: '200',
      // Hardhat mines a block per transaction and none otherwise: index each block at once.
      CHAIN_CONFIRMATIONS: '0',
      SPONSOR_CLAIMS: 'true',
      RELAYER_PRIVATE_KEY: relayer.privateKey,
    };

    const before = await buildTestApp({ env: remote });
    const base = await makeMemberKeys();
    const [waiter, claimer, early] = [
      await cloneMemberKeys(base),
      await cloneMemberKeys(base),
      await cloneMemberKeys(base),
    ];
    for (const keys of [waiter, claimer, early]) {
      await joinAndConfirm(before.app, before.services.database.db, keys);
      await node.request('hardhat_setBalance', [keys.address, toQuantity(parseEther('1'))]);
    }
    expect(
      (await operatorCall(before, 'POST', '/api/operator/distributions')).json(),
    ).toMatchObject({ index: 1, outcome: 'published' });

    // The relayer's first batch (its nonce 0) is in the backup.
    await sponsoredAndConfirmed(before, early, 1);

    const backup = await operatorCall(before, 'GET', '/api/operator/backup');
    expect(backup.statusCode, backup.body).toBe(200);
    const archive = backup.rawPayload;

    // After the backup: a member joins, round 2 is published, and the relayer sends the claimer's
    // claim of it (its nonce 1, which the backup does not know).
    const late = await cloneMemberKeys(base);
    await joinAndConfirm(before.app, before.services.database.db, late);
    expect(
      (await operatorCall(before, 'POST', '/api/operator/distributions')).json(),
    ).toMatchObject({ index: 2, outcome: 'published' });
    await sponsoredAndConfirmed(before, claimer, 2);
    const claimedOnChain = (await me(before, claimer)).claimed;
    await before.close();

    // Restored into an empty database and DATA_DIR.
    const dataDir = mkdtempSync(path.join(tmpdir(), 'crw-restored-'));
    let url: string | undefined;
    if (testDbKind === 'postgres') {
      const created = await createPostgresDatabase();
      cleanup.push(created.drop);
      url = created.url;
    }
    // With the CLI, as an operator would: it names the round the backup does not have.
    const file = path.join(dataDir, '..', `${path.basename(dataDir)}.tar.gz`);
    writeFileSync(file, archive, { mode: 0o600 });
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'server/src/cli/ops.ts', 'restore', file],
      {
        cwd: repoRoot,
        env: {
          PATH: process.env.PATH ?? '',
          ...remote,
          DATA_DIR: dataDir,
          ...(url ? { DATABASE_URL: url } : {}),
        },
      },
    );
    expect(stdout).toContain('rounds published up to 1');
    expect(stdout).toContain("The chain has round 2, newer than the backup's round 1");
    expect(stdout).toContain('it will be round 3');
    const database = await openDatabase(
      url ? { kind: 'postgres', url } : { kind: 'pglite', dataDir },
    );
    const after = await buildTestApp({
      env: { ...remote, DATA_DIR: dataDir },
      database: { database, drop: async () => undefined },
    });
    cleanup.push(async () => {
      await after.close();
      await database.close();
    });

    // The follower reads on from the backup's block: the claim made after it is counted.
    await until(async () => (await me(after, claimer)).claimed === claimedOnChain, {
      timeoutMs: 30_000,
      intervalMs: 200,
      what: 'the follower to count the claim made after the backup',
    });
    expect(claimedOnChain).toBe(reme(200));
    expect((await me(after, claimer)).forClaiming).toBe('0');
    // The member who joined after the backup is not in it (the restore says so).
    const unknown = await after.app.inject({
      method: 'POST',
      url: '/auth/sign-in/email',
      headers: { origin: ORIGIN },
      payload: { email: late.email, password: late.authSecret },
    });
    expect(unknown.statusCode).toBe(401);

    // The next round follows the chain's round 2, whose tree the backup does not have.
    expect((await operatorCall(after, 'POST', '/api/operator/distributions')).json()).toMatchObject(
      { index: 3, outcome: 'published' },
    );
    // The relayer's next batch takes its nonce from the chain, not from the restored record.
    await sponsoredAndConfirmed(after, waiter, 3);
    await until(async () => (await me(after, waiter)).claimed === reme(200), {
      timeoutMs: 30_000,
      intervalMs: 200,
      what: 'the waiter’s claim counted',
    });
    // Nobody is paid twice: the relayer is not asked again for the claimer, whose claim after the
    // backup the follower counted, and the claimer's own round-3 claim moves no REME.
    const refused = await sponsored(after, claimer, 3);
    expect(refused.answer.statusCode).toBe(409);
    expect(refused.answer.json()).toMatchObject({ code: 'nothing_to_claim' });
    const balance = async () =>
      BigInt(await contracts.token.getFunction('balanceOf')(claimer.address));
    const held = await balance();
    const again = await claim(after, claimer, distributor, 3);
    expect(again.receipt?.status === '0x1' ? await balance() : held).toBe(held);
    expect(held).toBe(BigInt(reme(200)));
  }, 240_000);
});
