// The funding invariant (docs/security.md#the-funding-invariant): the distributor must hold at
// least what the current round still owes, Σ max(0, cumulative − claimed) over its leaves. Both
// figures come from the chain index at one block (the token's transfers give the distributor's
// balance, its Claimed events what each address has taken), so they never disagree by a claim
// the index has not seen yet.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../infra/db/schema';

export interface FundingStatus {
  /** The distributor's current round, as indexed (0 before the first). */
  round: number;
  /** The indexed block both figures are read at. */
  blockNumber: number;
  balance: bigint;
  owed: bigint;
  /** max(0, owed − balance): what `ops fund-distributor` sends. */
  shortfall: bigint;
}

/** The distributor's funding at the chain index's latest block, or null before it indexed one. */
export async function measureFunding(db: Kysely<DB>): Promise<FundingStatus | null> {
  const { rows } = await sql<{
    round_index: number;
    block_number: string;
    balance: string | null;
    owed: string | null;
  }>`
    SELECT s.round_index, s.block_number,
      (SELECT reme_balance FROM chain_wallets WHERE address = s.distributor_address) AS balance,
      (SELECT sum(greatest(e.cumulative_amount - coalesce(w.claimed, 0), 0))
         FROM distribution_entries e
         LEFT JOIN chain_wallets w ON w.address = e.wallet_address
         WHERE e.round_index = s.round_index) AS owed
    FROM chain_follower_state s
    WHERE s.block_hash IS NOT NULL`.execute(db);
  const row = rows[0];
  if (!row) return null;
  return funding(row.round_index, row.block_number, row.balance ?? 0, row.owed ?? 0);
}

/** Keeps `status` as the last check, for /metrics in every process. */
export async function recordFunding(db: Kysely<DB>, status: FundingStatus): Promise<void> {
  const row = {
    round_index: status.round,
    block_number: status.blockNumber,
    balance: status.balance,
    owed: status.owed,
    checked_at: new Date(),
  };
  await db
    .insertInto('distributor_funding')
    .values(row)
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .execute();
}

/** The last check any process recorded, or null before the first. */
export async function lastFunding(db: Kysely<DB>): Promise<FundingStatus | null> {
  const row = await db.selectFrom('distributor_funding').selectAll().executeTakeFirst();
  if (!row) return null;
  return funding(row.round_index, row.block_number, row.balance, row.owed);
}

function funding(
  round: number,
  block: number | string,
  held: bigint | string | number,
  owing: bigint | string | number,
): FundingStatus {
  const balance = BigInt(held);
  const owed = BigInt(owing);
  return {
    round,
    blockNumber: Number(block),
    balance,
    owed,
    shortfall: owed > balance ? owed - balance : 0n,
  };
}
