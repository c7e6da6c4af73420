// The embedded chain's journal replay: replay mines every journaled transaction at its
// recorded block number and timestamp and checks the block hash; an entry that does not replay
// stops the start with its seq and hash, and CHAIN_JOURNAL_ON_DIVERGENCE=archive recovers.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Transaction, Wallet, hexlify, randomBytes } from 'ethers';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChainNode } from '../src/infra/chain/node';
import { joinAndConfirm, makeMemberKeys } from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { openTestDatabase, testDbKind, type TestDatabase } from './helpers/test-database';
import { until } from './helpers/until';

/** Deploys a runtime (0x4260005500) that stores block.timestamp at slot 0 on every call. */
const TIMESTAMP_RECORDER = '0x6442600055006000526005601bf3';

let databases: TestDatabase[] = [];
afterEach(async () => {
  await Promise.all(databases.map((d) => d.drop()));
  databases = [];
});

/** One install: a database and a DATA_DIR that every start reuses. */
async function install() {
  const database = await openTestDatabase();
  databases.push(database);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'crw-replay-'));
  const db = database.database.db;
  return {
    db,
    dataDir,
    start: (env: Record<string, string> = {}) =>
      buildTestApp({ database, env: { DATA_DIR: dataDir, ...env } }),
  };
}

type Block = { number: string; hash: string; timestamp: string };
const block = (node: ChainNode, tag: string) =>
  node.request({ method: 'eth_getBlockByNumber', params: [tag, false] }) as Promise<Block>;

async function everyBlock(t: TestApp): Promise<Block[]> {
  const { node } = t.services.chain;
  const latest = Number((await block(node, 'latest')).number);
  const blocks = await Promise.all(
    Array.from({ length: latest + 1 }, (_, n) => block(node, `0x${n.toString(16)}`)),
  );
  return blocks.map(({ number, hash, timestamp }) => ({ number, hash, timestamp }));
}

/** Waits until the chain's clock is more than a second past its latest block. The chain's clock is
 * the wall clock, so real time must pass: no event stands in for it (the test is about timestamps). */
async function letTimePass(node: ChainNode): Promise<void> {
  const latest = Number((await block(node, 'latest')).timestamp);
  await until(async () => Number((await block(node, 'pending')).timestamp) >= latest + 2, {
    timeoutMs: 10_000,
    intervalMs: 250,
    what: "the chain's clock 2 s past its latest block",
  });
}

const health = async (t: TestApp) =>
  (await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode;
const operator = (t: TestApp) => ({ authorization: `Bearer ${t.services.operatorKey}` });

describe(`embedded chain journal replay (${testDbKind})`, () => {
  it('replays a contract that depends on block.timestamp exactly: same block hashes, same stored timestamp', async () => {
    const { start } = await install();
    const first = await start();
    const { node, faucet, provider } = first.services.chain;
    const deployed = await (await faucet!.sendTransaction({ data: TIMESTAMP_RECORDER })).wait();
    const recorder = deployed!.contractAddress!;
    for (let call = 0; call < 2; call++) {
      await letTimePass(node);
      await (await faucet!.sendTransaction({ to: recorder, gasLimit: 50_000 })).wait();
    }
    const blocks = await everyBlock(first);
    const stored = await provider.getStorage(recorder, 0);
    await first.close();

    const second = await start();
    try {
      expect(await everyBlock(second)).toEqual(blocks);
      expect(await second.services.chain.provider.getStorage(recorder, 0)).toBe(stored);
    } finally {
      await second.close();
    }
  });

  it('stops at an entry signed by an unfunded key, naming it; with CHAIN_JOURNAL_ON_DIVERGENCE=archive the next start archives it and serves', async () => {
    const { db, start } = await install();
    await (await start()).close();
    const stranger = Wallet.createRandom();
    const raw = await stranger.signTransaction({
      type: 2,
      chainId: 31337n,
      nonce: 0,
      to: hexlify(randomBytes(20)),
      gasLimit: 21_000n,
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: 1n,
    });
    const { seq, tx_hash } = await db
      .insertInto('chain_journal')
      .values({ tx_hash: Transaction.from(raw).hash!, raw_tx: raw })
      .returning(['seq', 'tx_hash'])
      .executeTakeFirstOrThrow();

    await expect(start()).rejects.toThrow(
      `chain replay diverged at journal entry ${seq} (transaction ${tx_hash})`,
    );
    const recovered = await start({ CHAIN_JOURNAL_ON_DIVERGENCE: 'archive' });
    try {
      expect(await health(recovered)).toBe(200);
      expect(
        await db.selectFrom('chain_journal').select('seq').where('seq', '>=', seq).execute(),
      ).toEqual([]);
      expect(
        await db.selectFrom('chain_journal_archive').select(['seq', 'tx_hash']).execute(),
      ).toEqual([{ seq, tx_hash }]);
      expect(recovered.logs).toContainEqual(
        expect.objectContaining({ level: 40, fromSeq: seq, archived: [{ seq, txHash: tx_hash }] }),
      );
    } finally {
      await recovered.close();
    }
  });

  it('stops when DATA_DIR holds other keys than the journal was made with, naming both operators', async () => {
    const { db, start } = await install();
    const first = await start();
    const operator = first.services.chain.operator.address;
    await first.close();
    const { seq, tx_hash } = await db
      .selectFrom('chain_journal')
      .select(['seq', 'tx_hash'])
      .orderBy('seq')
      .executeTakeFirstOrThrow();
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'crw-replay-'));
    await expect(start({ DATA_DIR: elsewhere })).rejects.toThrow(
      new RegExp(
        `journal entry ${seq} \\(transaction ${tx_hash}\\): it was signed by ${operator}, but this install's operator \\(DATA_DIR/chain-operator-key\\) is 0x[0-9a-fA-F]{40}`,
      ),
    );
  });

  it('after a diverging round publication, archiving reopens the round and the next publish finishes it', async () => {
    const { db, start } = await install();
    const first = await start();
    await joinAndConfirm(first.app, db, await makeMemberKeys());
    const published = (
      await first.app.inject({
        method: 'POST',
        url: '/api/operator/distributions',
        headers: operator(first),
      })
    ).json() as { index: number; txHash: string; root: string };
    expect(published).toMatchObject({ index: 1, outcome: 'published' });
    await first.close();
    const { seq } = await db
      .selectFrom('chain_journal')
      .select('seq')
      .where('tx_hash', '=', published.txHash)
      .executeTakeFirstOrThrow();
    await db
      .updateTable('chain_journal')
      .set({ block_hash: hexlify(randomBytes(32)) })
      .where('seq', '=', seq)
      .execute();

    await expect(start()).rejects.toThrow(
      new RegExp(
        `journal entry ${seq} \\(transaction ${published.txHash}\\): block \\d+ has hash 0x[0-9a-f]{64}, the journal recorded`,
      ),
    );
    const recovered = await start({ CHAIN_JOURNAL_ON_DIVERGENCE: 'archive' });
    try {
      expect(await health(recovered)).toBe(200);
      expect(
        await db
          .selectFrom('distribution_rounds')
          .select(['round_index', 'status', 'tx_hash'])
          .execute(),
      ).toEqual([{ round_index: 1, status: 'prepared', tx_hash: null }]);
      expect(recovered.logs).toContainEqual(
        expect.objectContaining({ fromSeq: seq, reopenedRound: 1 }),
      );
      const again = (
        await recovered.app.inject({
          method: 'POST',
          url: '/api/operator/distributions',
          headers: operator(recovered),
        })
      ).json();
      expect(again).toMatchObject({ index: 1, outcome: 'resumed', root: published.root });
      expect(await recovered.services.chain.distributor.getFunction('merkleRoot')()).toBe(
        published.root,
      );
    } finally {
      await recovered.close();
    }
    const restarted = await start();
    expect(await health(restarted)).toBe(200);
    await restarted.close();
  });

  it('replays entries journaled before block recording as before, records their blocks, and replays them exactly after', async () => {
    const { db, start } = await install();
    await (await start()).close();
    await db
      .updateTable('chain_journal')
      .set({ block_number: null, block_timestamp: null, block_hash: null })
      .execute();

    const upgraded = await start();
    const blocks = await everyBlock(upgraded);
    await upgraded.close();
    const journal = await db
      .selectFrom('chain_journal')
      .select(['block_number', 'block_hash'])
      .orderBy('seq')
      .execute();
    expect(journal.map((e) => e.block_hash)).toEqual(blocks.slice(1).map((b) => b.hash));

    const again = await start();
    try {
      expect(await everyBlock(again)).toEqual(blocks);
    } finally {
      await again.close();
    }
  });
});
