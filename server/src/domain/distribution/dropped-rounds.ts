// When the embedded chain's journal is cut back (docs/operations.md, "Embedded chain: replay and
// recovery"), rounds whose publishing transaction was cut are no longer on chain. The earliest
// goes back to 'prepared' with its transaction forgotten, so the next publish signs it again with
// the operator's nonce on the chain as it now is; later ones are deleted, because the distributor
// takes rounds only in order and the next round is built from the current entitlements anyway.
import type { Kysely } from 'kysely';
import type { DB } from '../../infra/db/schema';

export interface ReopenedRounds {
  reopenedRound: number | null;
  deletedRounds: number[];
}

export async function reopenDroppedRounds(
  trx: Kysely<DB>,
  droppedTxHashes: string[],
): Promise<ReopenedRounds> {
  if (droppedTxHashes.length === 0) return { reopenedRound: null, deletedRounds: [] };
  const first = await trx
    .selectFrom('distribution_rounds')
    .select((eb) => eb.fn.min('round_index').as('index'))
    .where('tx_hash', 'in', droppedTxHashes)
    .executeTakeFirst();
  if (first?.index == null) return { reopenedRound: null, deletedRounds: [] };
  const reopened = Number(first.index);
  const deleted = await trx
    .deleteFrom('distribution_rounds')
    .where('round_index', '>', reopened)
    .returning('round_index')
    .execute();
  await trx
    .updateTable('distribution_rounds')
    .set({ status: 'prepared', tx_hash: null, raw_tx: null, published_at: null })
    .where('round_index', '=', reopened)
    .execute();
  return {
    reopenedRound: reopened,
    deletedRounds: deleted.map((d) => d.round_index).sort((a, b) => a - b),
  };
}
