// Batches the chain lost after the relayer recorded them as mined (a reorganisation deeper than
// CHAIN_CONFIRMATIONS; docs/security.md#sponsored-claims): their claims go back to the queue, to be
// sent again, and their record is dropped, which frees their nonce for the next batch. The
// follower tells of the `Claimed` events that vanished; the relayer also finds a lost batch by
// its nonce when it picks the next one (a batch with no `Claimed` event leaves no trace to report).
import type { Log } from '../../logging';
import { sql, type Kysely } from 'kysely';
import type { Vanished } from '../indexer/follower-store';
import type { DB } from '../../infra/db/schema';
import { notifyMembers } from '../../infra/db/member-notices';

/** Puts the confirmed claims of the relayer's batch `nonce` back in the queue and drops the batch's
 * record; answers how many claims went back. */
export async function requeueLostBatch(
  db: Kysely<DB>,
  relayer: string,
  nonce: number,
): Promise<number> {
  const claims = await db
    .updateTable('sponsored_claims')
    .set({
      status: 'queued',
      relayer: null,
      tx_nonce: null,
      reason: null,
      spent_wei: null,
      updated_at: new Date(),
    })
    .where('relayer', '=', relayer)
    .where('tx_nonce', '=', nonce)
    .where('status', '=', 'confirmed')
    .returning('user_id')
    .execute();
  // A failed claim stays failed (its member may have asked again since); it only lets go of the batch.
  await db
    .updateTable('sponsored_claims')
    .set({ relayer: null, tx_nonce: null })
    .where('relayer', '=', relayer)
    .where('tx_nonce', '=', nonce)
    .execute();
  await db
    .deleteFrom('relayer_transactions')
    .where('relayer', '=', relayer)
    .where('nonce', '=', nonce)
    .execute();
  await notifyMembers(
    db,
    claims.map((c) => c.user_id),
  );
  return claims.length;
}

/** The follower's rollback listener: each relayer batch whose `Claimed` events vanished is lost.
 * Runs in the rollback's transaction. */
export async function requeueVanishedBatches(
  trx: Kysely<DB>,
  vanished: Vanished,
  log: Log,
): Promise<void> {
  const hashes = [...new Set(vanished.claims.map((c) => c.txHash.toLowerCase()))];
  if (hashes.length === 0) return;
  const lost = await trx
    .selectFrom('relayer_transactions')
    .select(['relayer', 'nonce'])
    .where(sql<string>`lower(mined_hash)`, 'in', hashes)
    .execute();
  for (const batch of lost) {
    const nonce = Number(batch.nonce);
    const claims = await requeueLostBatch(trx, batch.relayer, nonce);
    log.warn(
      { relayer: batch.relayer, nonce, claims },
      'relayer: the chain lost a mined batch (a reorganisation deeper than CHAIN_CONFIRMATIONS); its claims are queued again',
    );
  }
}
