// The relayer's server process killed with SIGKILL in the middle of
// sending 200 members' sponsored claims (batches of 25) to a Hardhat node process, on PostgreSQL.
// Mining is paused so that each kill finds a batch recorded and not mined: the first while its
// batch waits in the node's pool (mined while no server runs), the second as if it died between
// recording a batch and broadcasting it (the node is made to forget the transaction). A server
// started again on the same database finishes: every member paid exactly once, the relayer's nonces
// 0..n-1 each used once and recorded as mined, no transaction reverted, the fees recorded as paid.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  claimRequestDomain,
  claimRequestTypes,
  CLAIM_REQUEST_LIFETIME_S,
  type ClaimRequest,
} from '@crw/core';
import { deployContracts } from '@crw/contracts';
import {
  Contract,
  JsonRpcProvider,
  Transaction,
  Wallet,
  parseEther,
  type TransactionReceipt,
} from 'ethers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '../src/infra/db/database';
import { registerMember } from '../src/domain/members/registration';
import { distributorInterface, tokenInterface } from './helpers/chain-client';
import { startHardhatNode, type HardhatNode } from './helpers/hardhat-node';
import {
  cloneMemberKeys,
  cookieOf,
  makeMemberKeys,
  uniqueEmail,
  type MemberKeys,
} from './helpers/members';
import { freePort } from './helpers/ports';
import { spawnServer, waitForHealthy, type ServerProcess } from './helpers/server-process';
import { fixtureWebDist } from './helpers/test-app';
import { createPostgresDatabase, testDbKind } from './helpers/test-database';
import { untilRead } from './helpers/until';

// The members are written with the server's own registerMember, their auth secret hashed at a
// lower scrypt cost (N=2^10, p=1; the hash records its cost and the server verifies at that cost):
// 400 scrypts at the OWASP cost (sign-up and sign-in, ~220 ms each here) would take this test past
// two minutes on two shared cores. Signing in, claiming and all that follows is the server's own.
vi.mock('../src/infra/identity/password-hash', async (importOriginal) => {
  const { randomBytes: salt, scrypt } = await import('node:crypto');
  const cheap = (secret: string) =>
    new Promise<string>((resolve, reject) => {
      const s = salt(16);
      scrypt(secret.normalize('NFKC'), s, 32, { N: 1024, r: 8, p: 1 }, (error, key) =>
        error
          ? reject(error)
          : resolve(
              ['scrypt', 1024, 8, 1, s.toString('base64url'), key.toString('base64url')].join('$'),
            ),
      );
    });
  return { ...(await importOriginal<object>()), hashSecret: cheap };
});

const MEMBERS = 200;
const BATCH = 25;
const REME_EACH = parseEther('200'); // the sign-up bonus, all a member has in round 1

const claimed = distributorInterface.getEvent('Claimed')!.topicHash;
const skipped = distributorInterface.getEvent('ClaimSkipped')!.topicHash;

async function inLanes<T>(
  items: readonly T[],
  lanes: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

const until = <T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> => untilRead(read, done, { what, timeoutMs, intervalMs: 100 });

describe.runIf(testDbKind === 'postgres')(
  'SIGKILL of the relayer process while it sends 200 sponsored claims',
  () => {
    let node: HardhatNode;
    let provider: JsonRpcProvider;
    let database: Database;
    let url: string;
    let drop: () => Promise<void>;
    const servers: ServerProcess[] = [];

    beforeAll(async () => {
      node = await startHardhatNode();
      provider = new JsonRpcProvider(node.url, 31337, { staticNetwork: true, cacheTimeout: -1 });
      const created = await createPostgresDatabase();
      url = created.url;
      drop = created.drop;
      database = await openDatabase({ kind: 'postgres', url, poolSize: 5 });
    }, 60_000);
    afterAll(async () => {
      for (const s of servers) await s.stop('SIGKILL');
      await node?.request('evm_setAutomine', [true]).catch(() => undefined);
      await database?.close();
      await drop?.();
      provider?.destroy();
      await node?.stop();
    });

    it('pays every member exactly once, uses each relayer nonce once, reverts nothing and confirms every claim', async () => {
      const started = Date.now();
      const operator = new Wallet(node.accounts[0]!, provider);
      const relayer = new Wallet(node.accounts[1]!);
      const startBlock = (await provider.getBlockNumber()) + 1;
      const { token, distributor } = await deployContracts(operator, parseEther('1000000'));
      const tokenAddress = await token.getAddress();
      const distributorAddress = await distributor.getAddress();
      const relayerBalanceBefore = await provider.getBalance(relayer.address);

      const env = {
        DATABASE_URL: url,
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'crw-data-')),
        WEB_DIST_DIR: fixtureWebDist(),
        AUTH_SECRET: randomBytes(32).toString('hex'),
        OPERATOR_API_KEY: randomBytes(32).toString('hex'),
        REQUIRE_EMAIL_CONFIRMATION: 'false',
        AUTH_RATE_LIMIT_PER_IP: '100000',
        AUTH_RATE_LIMIT_PER_EMAIL: '100000',
        CHAIN_RPC_URL: node.url,
        TOKEN_ADDRESS: tokenAddress,
        DISTRIBUTOR_ADDRESS: distributorAddress,
        OPERATOR_PRIVATE_KEY: node.accounts[0]!,
        CHAIN_START_BLOCK: String(startBlock),
        CHAIN_CONFIRMATIONS: '0',
        CHAIN_POLL_INTERVAL_MS: '200',
        SPONSOR_CLAIMS: 'true',
        SPONSOR_DAILY_BUDGET_ETH: '10',
        RELAYER_PRIVATE_KEY: relayer.privateKey,
        RELAYER_BATCH_SIZE: String(BATCH),
        RELAYER_BATCH_WAIT_MS: '200',
        // No replacement in this test: each batch is signed once (relayer-replace.test.ts replaces).
        RELAYER_REPLACE_AFTER_SECONDS: '600',
        LOG_LEVEL: 'warn',
      };
      const start = async () => {
        const port = await freePort();
        const server = spawnServer({
          ...env,
          PORT: String(port),
          PUBLIC_URL: `http://127.0.0.1:${port}`,
        });
        servers.push(server);
        const ms = await waitForHealthy(server);
        return { server, ms };
      };
      const kill = async (server: ServerProcess) => {
        server.child.kill('SIGKILL');
        expect(await server.exited).toBeNull(); // killed by the signal, not exited
        expect(server.child.signalCode).toBe('SIGKILL');
      };
      const txRows = () =>
        database.db.selectFrom('relayer_transactions').selectAll().orderBy('nonce').execute();
      const claimStatuses = async () => {
        const rows = await database.db
          .selectFrom('sponsored_claims')
          .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
          .groupBy('status')
          .execute();
        return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])) as Record<
          string,
          number
        >;
      };
      /** The claims by status and batch (its nonce): [status, nonce or null, how many]. */
      const claimBatches = async () => {
        const rows = await database.db
          .selectFrom('sponsored_claims')
          .select(['status', 'tx_nonce', (eb) => eb.fn.countAll<number>().as('n')])
          .groupBy(['status', 'tx_nonce'])
          .orderBy('tx_nonce')
          .execute();
        return rows.map(
          (r) => [r.status, r.tx_nonce === null ? null : Number(r.tx_nonce), Number(r.n)] as const,
        );
      };

      const first = await start();
      const timings: string[] = [`first server healthy after ${first.ms} ms`];

      // 200 members, each signed in through the server.
      const base = await makeMemberKeys();
      const members: MemberKeys[] = await Promise.all(
        Array.from({ length: MEMBERS }, () => cloneMemberKeys(base, uniqueEmail('relayer-crash'))),
      );
      const dummyProof = { nonce: 'n', signature: '0x' };
      await inLanes(members, 10, async (m) => {
        await registerMember(
          database.db,
          { signingKey: 'unused', publicUrl: first.server.url, requireConfirmation: false },
          {
            email: m.email,
            authSecret: m.authSecret,
            firstName: 'Ada',
            lastName: 'Lovelace',
            wallet: { address: m.address, keystore: m.keystore, proof: dummyProof },
          },
        );
      });
      const cookies = new Map<string, string>();
      await inLanes(members, 10, async (m) => {
        const res = await fetch(`${first.server.url}/auth/sign-in/email`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: first.server.url },
          body: JSON.stringify({ email: m.email, password: m.authSecret }),
        });
        expect(res.status, await res.clone().text()).toBe(200);
        cookies.set(m.address, cookieOf(res.headers.getSetCookie()));
      });

      // One round for them all, indexed by the follower.
      const published = await fetch(`${first.server.url}/api/operator/distributions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.OPERATOR_API_KEY}` },
      });
      expect(published.status, await published.clone().text()).toBe(200);
      expect(await published.json()).toMatchObject({ index: 1 });
      await until(
        'the follower indexes round 1',
        () =>
          database.db.selectFrom('chain_follower_state').select('round_index').executeTakeFirst(),
        (s) => s?.round_index === 1,
      );
      timings.push(`members signed in and round published at ${Date.now() - started} ms`);

      // Mining paused: each batch the relayer sends waits in the node's pool.
      await node.request('evm_setAutomine', [false]);
      const domain = claimRequestDomain(31337, distributorAddress);
      await inLanes(members, 10, async (m) => {
        const cookie = cookies.get(m.address)!;
        const claim = (await (
          await fetch(`${first.server.url}/api/claim`, { headers: { cookie } })
        ).json()) as { distributedTokens: string; distributionIndex: number };
        expect(BigInt(claim.distributedTokens)).toBe(REME_EACH);
        const request: ClaimRequest = {
          account: m.address,
          cumulativeAmount: claim.distributedTokens,
          round: claim.distributionIndex,
          deadline: Math.floor(Date.now() / 1000) + CLAIM_REQUEST_LIFETIME_S,
        };
        const signature = await new Wallet(m.privateKey).signTypedData(
          domain,
          claimRequestTypes,
          request,
        );
        const res = await fetch(`${first.server.url}/api/claim/sponsored`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie, origin: first.server.url },
          body: JSON.stringify({ ...request, signature }),
        });
        expect(res.status, await res.clone().text()).toBe(202);
      });
      timings.push(`200 claims queued at ${Date.now() - started} ms`);

      // Batch 0 waits in the pool; mined, the relayer reconciles it and sends batch 1, which waits.
      await until('batch 0 recorded', txRows, (rows) => rows.length === 1);
      await node.request('evm_mine');
      const atFirstKill = await until(
        'batch 0 reconciled and batch 1 recorded',
        txRows,
        (rows) => rows.length === 2 && rows[0]!.status === 'mined',
      );
      expect(atFirstKill.map((r) => [Number(r.nonce), r.status])).toEqual([
        [0, 'mined'],
        [1, 'pending'],
      ]);
      // Mid-batch: batch 0's claims confirmed, batch 1's sent, the others queued (the relayer may
      // have sent batch 0 before every request was in: batches hold up to 25).
      const firstKill = await claimBatches();
      expect(firstKill.map(([status, nonce]) => [status, nonce])).toEqual([
        ['confirmed', 0],
        ['sent', 1],
        ['queued', null],
      ]);
      expect(
        firstKill
          .filter(([, nonce, n]) => nonce !== null && (n < 1 || n > BATCH))
          .map(([status, nonce, n]) => [status, nonce, n]),
      ).toEqual([]);
      const batch1 = (atFirstKill[1]!.attempts as Array<{ hash: string }>)[0]!.hash;
      // The relayer records a batch before it sends it: wait until the node has it, then see it
      // waiting unmined in the pool.
      await until(
        'batch 1 in the node',
        () => node.request('eth_getTransactionByHash', [batch1]),
        (tx) => tx !== null,
      );
      expect(await node.request('eth_getTransactionByHash', [batch1])).toMatchObject({
        hash: batch1,
        blockNumber: null,
      });
      await kill(first.server);

      // Batch 1 is mined while no server runs; the next server finds it mined, records it and sends batch 2.
      await node.request('evm_mine');
      expect(await provider.getTransactionReceipt(batch1)).toMatchObject({ status: 1 });
      const second = await start();
      timings.push(`second server healthy after ${second.ms} ms`);
      const atSecondKill = await until(
        'batch 1 reconciled and batch 2 recorded',
        txRows,
        (rows) => rows.length === 3 && rows[1]!.status === 'mined',
      );
      expect(atSecondKill.map((r) => [Number(r.nonce), r.status])).toEqual([
        [0, 'mined'],
        [1, 'mined'],
        [2, 'pending'],
      ]);
      expect(atSecondKill[1]!.mined_hash).toBe(batch1);
      expect(
        (await claimBatches()).map(([status, nonce, n]) => [
          status,
          nonce,
          status === 'queued' ? 'some' : n,
        ]),
      ).toEqual([
        ['confirmed', 0, firstKill[0]![2]],
        ['confirmed', 1, firstKill[1]![2]],
        ['sent', 2, expect.any(Number)],
        ['queued', null, 'some'],
      ]);
      await kill(second.server);

      // As if the process had died between recording batch 2 and broadcasting it.
      const batch2 = (atSecondKill[2]!.attempts as Array<{ hash: string }>)[0]!.hash;
      expect(await node.request('hardhat_dropTransaction', [batch2])).toBe(true);
      expect(await node.request('eth_getTransactionByHash', [batch2])).toBeNull();
      await node.request('evm_setAutomine', [true]);
      const third = await start();
      timings.push(`third server healthy after ${third.ms} ms`);
      await until('every claim confirmed', claimStatuses, (s) => s.confirmed === MEMBERS, 60_000);
      timings.push(`all confirmed at ${Date.now() - started} ms`);
      await third.server.stop();

      // The chain: the relayer's transactions, nonces 0..n-1 each once, none reverted.
      const head = await provider.getBlockNumber();
      const sent: Array<{
        nonce: number;
        hash: string;
        data: string;
        receipt: TransactionReceipt;
      }> = [];
      for (let n = startBlock; n <= head; n++) {
        const block = await provider.getBlock(n, true);
        for (const tx of block!.prefetchedTransactions) {
          if (tx.from !== relayer.address) continue;
          sent.push({
            nonce: tx.nonce,
            hash: tx.hash,
            data: tx.data,
            receipt: (await provider.getTransactionReceipt(tx.hash))!,
          });
        }
      }
      const batches = sent.length;
      expect(batches).toBeGreaterThanOrEqual(MEMBERS / BATCH);
      expect(sent.map((s) => s.nonce)).toEqual(Array.from({ length: batches }, (_, i) => i));
      expect(await provider.getTransactionCount(relayer.address, 'latest')).toBe(batches);
      expect(sent.filter((s) => s.receipt.status !== 1)).toEqual([]);
      for (const s of sent) expect(s.receipt.to).toBe(distributorAddress);

      // Each member's claim went in one batch only, and was paid once, its whole amount.
      const inBatches = sent.flatMap((s) => {
        const [round, claims] = distributorInterface.decodeFunctionData(
          'claimMany',
          s.data,
        ) as unknown as [bigint, Array<[string, bigint, string[]]>];
        expect(round).toBe(1n);
        expect(claims.length).toBeLessThanOrEqual(BATCH);
        return claims.map(([account, amount]) => ({ account, amount }));
      });
      expect(inBatches.map((c) => c.account).sort()).toEqual(members.map((m) => m.address).sort());
      const logs = await provider.getLogs({
        address: distributorAddress,
        fromBlock: startBlock,
        toBlock: head,
        topics: [[claimed, skipped]],
      });
      expect(logs.filter((l) => l.topics[0] === skipped)).toEqual([]);
      const paid = logs
        .map((l) => distributorInterface.parseLog(l)!)
        .map((e) => ({ account: String(e.args[0]), amount: BigInt(e.args[1]) }));
      expect(paid.map((p) => p.account).sort()).toEqual(members.map((m) => m.address).sort());
      expect(paid.filter((p) => p.amount !== REME_EACH)).toEqual([]);
      const tokenRead = new Contract(tokenAddress, tokenInterface, provider);
      const balances = new Map<string, bigint>();
      await inLanes(
        members,
        20,
        async (m) =>
          void balances.set(
            m.address,
            (await tokenRead.getFunction('balanceOf')(m.address)) as bigint,
          ),
      );
      expect(
        members
          .filter((m) => balances.get(m.address) !== REME_EACH)
          .map((m) => [m.address, balances.get(m.address)]),
      ).toEqual([]);

      // The database agrees: each nonce recorded once, mined, with the chain's hash, block, gas and fee.
      const rows = await txRows();
      expect(rows.map((r) => [r.relayer, Number(r.nonce), r.status])).toEqual(
        sent.map((s) => [relayer.address.toLowerCase(), s.nonce, 'mined']),
      );
      for (const [i, row] of rows.entries()) {
        const { hash, receipt } = sent[i]!;
        expect(row.mined_hash).toBe(hash);
        expect((row.attempts as Array<{ hash: string; raw: string }>).map((a) => a.hash)).toEqual([
          hash,
        ]);
        expect(Transaction.from((row.attempts as Array<{ raw: string }>)[0]!.raw).nonce).toBe(i);
        expect(Number(row.block_number)).toBe(receipt.blockNumber);
        expect(BigInt(row.gas_used!)).toBe(receipt.gasUsed);
        expect(BigInt(row.cost_wei!)).toBe(receipt.gasUsed * receipt.gasPrice);
      }
      const claims = await database.db
        .selectFrom('sponsored_claims')
        .select(['account', 'status', 'reason', 'tx_nonce', 'spent_wei'])
        .execute();
      expect(claims.filter((c) => c.status !== 'confirmed' || c.reason !== null)).toEqual([]);
      expect(new Set(claims.map((c) => c.account)).size).toBe(MEMBERS);
      const fees = sent.reduce((sum, s) => sum + s.receipt.gasUsed * s.receipt.gasPrice, 0n);
      expect(await provider.getBalance(relayer.address)).toBe(relayerBalanceBefore - fees);
      // What the budget counts, the claims' shares, adds up to the fees paid.
      for (const s of sent) {
        const shares = claims
          .filter((c) => Number(c.tx_nonce) === s.nonce)
          .reduce((sum, c) => sum + BigInt(c.spent_wei!), 0n);
        expect(shares, `batch ${s.nonce}`).toBe(s.receipt.gasUsed * s.receipt.gasPrice);
      }

      const gas = sent.map((s) => s.receipt.gasUsed);
      const sizes = sent.map(
        (s) =>
          (distributorInterface.decodeFunctionData('claimMany', s.data)[1] as unknown[]).length,
      );
      console.info(
        `[relayer-crash] ${timings.join('; ')}. ${batches} batches: claims / gas (per claim) ${sent.map((_, i) => `${sizes[i]} / ${gas[i]} (${gas[i]! / BigInt(sizes[i]!)})`).join(', ')}; ` +
          `fees ${sent.map((s) => `${Number(s.receipt.gasPrice) / 1e9} gwei`).join(', ')}; ${Number(fees) / 1e18} ETH in all`,
      );
    }, 180_000);
  },
);
