// The embedded chain's journal: every transaction the node mined, in order, with the block it was
// mined in, so a start rebuilds the same chain (replay.ts); and the archive of entries a start cut
// off because they no longer replay.
import type { DevChain } from '@crw/contracts';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema';

export interface MinedBlock {
  number: number;
  timestamp: number;
  hash: string;
}

export interface JournalEntry {
  seq: number;
  txHash: string;
  raw: string;
  /** Null on entries journaled before blocks were (migration 0007) until a start records it. */
  block: MinedBlock | null;
}

/** The block `txHash` was mined in, or null when the node has not mined it. */
export async function minedBlock(chain: DevChain, txHash: string): Promise<MinedBlock | null> {
  const receipt = (await chain.request({
    method: 'eth_getTransactionReceipt',
    params: [txHash],
  })) as { blockHash: string } | null;
  if (!receipt) return null;
  const block = (await chain.request({
    method: 'eth_getBlockByHash',
    params: [receipt.blockHash, false],
  })) as { number: string; timestamp: string; hash: string };
  return { number: Number(block.number), timestamp: Number(block.timestamp), hash: block.hash };
}

export async function readJournal(db: Kysely<DB>): Promise<JournalEntry[]> {
  const rows = await db
    .selectFrom('chain_journal')
    .select(['seq', 'tx_hash', 'raw_tx', 'block_number', 'block_timestamp', 'block_hash'])
    .orderBy('seq')
    .execute();
  return rows.map((row) => ({
    seq: row.seq,
    txHash: row.tx_hash,
    raw: row.raw_tx,
    block:
      row.block_number === null
        ? null
        : { number: row.block_number, timestamp: row.block_timestamp!, hash: row.block_hash! },
  }));
}

export async function appendToJournal(
  db: Kysely<DB>,
  txHash: string,
  raw: string,
  block: MinedBlock | null,
): Promise<void> {
  await db
    .insertInto('chain_journal')
    .values({
      tx_hash: txHash,
      raw_tx: raw,
      block_number: block?.number ?? null,
      block_timestamp: block?.timestamp ?? null,
      block_hash: block?.hash ?? null,
    })
    .onConflict((oc) => oc.column('tx_hash').doNothing())
    .execute();
}

/** Records the blocks that entries journaled without one were mined in by this start's replay. */
export async function recordBlocks(
  db: Kysely<DB>,
  recorded: Array<{ seq: number; block: MinedBlock }>,
): Promise<void> {
  if (recorded.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const { seq, block } of recorded) {
      await trx
        .updateTable('chain_journal')
        .set({
          block_number: block.number,
          block_timestamp: block.timestamp,
          block_hash: block.hash,
        })
        .where('seq', '=', seq)
        .execute();
    }
  });
}

export interface ArchivedJournal extends Record<string, unknown> {
  archived: Array<{ seq: number; txHash: string }>;
}

/** Told, in the archiving transaction, which transactions left the journal; what it answers is
 * logged with them (the root passes the distribution rounds' reopening, services.ts). */
export type OnJournalDropped = (
  trx: Kysely<DB>,
  txHashes: string[],
) => Promise<Record<string, unknown>>;

/**
 * Moves entry `fromSeq` and every later one to chain_journal_archive with `reason`, and tells
 * `onDropped` of them, in one database transaction.
 */
export async function archiveJournal(
  db: Kysely<DB>,
  fromSeq: number,
  reason: string,
  onDropped: OnJournalDropped = async () => ({}),
): Promise<ArchivedJournal> {
  return db.transaction().execute(async (trx) => {
    await sql`
      INSERT INTO chain_journal_archive (seq, tx_hash, raw_tx, block_number, block_timestamp, block_hash, created_at, reason)
      SELECT seq, tx_hash, raw_tx, block_number, block_timestamp, block_hash, created_at, ${reason}
      FROM chain_journal WHERE seq >= ${fromSeq}`.execute(trx);
    const dropped = await trx
      .deleteFrom('chain_journal')
      .where('seq', '>=', fromSeq)
      .returning(['seq', 'tx_hash'])
      .execute();
    const told = await onDropped(
      trx,
      dropped.map((d) => d.tx_hash),
    );
    const archived = dropped
      .map((d) => ({ seq: d.seq, txHash: d.tx_hash }))
      .sort((a, b) => a.seq - b.seq);
    return { archived, ...told };
  });
}
