// The chain follower's tables (migration 0009): its state row, the recent block hashes it checks
// for reorgs, the events it read and each wallet's figures. Every write checks, under a row lock,
// that the state is still where the writer read it, so a stale writer can never count twice.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../infra/db/schema';
import { EVERY_MEMBER, notifyMembers } from '../../infra/db/member-notices';
import { walletDeltas, type ChainEvent, type RoundStatus } from '../../infra/chain/chain-events';

/** Processed blocks whose hashes are kept for finding where a reorg forked. */
const KEPT_BLOCKS = 64;
const INSERT_BATCH = 2_000;

/** Which chain and contracts the index belongs to (addresses lowercase). */
export interface FollowedChain {
  chainId: number;
  token: string;
  distributor: string;
}

/** A processed block; the hash is null only for the place before the first block read. */
export interface Cursor {
  number: number;
  hash: string | null;
}

export function readFollowerState(db: Kysely<DB>) {
  return db.selectFrom('chain_follower_state').selectAll().executeTakeFirst();
}

/** Empties the index and starts it again before `startBlock` (first start, other chain or contracts). */
export async function resetIndex(
  db: Kysely<DB>,
  chain: FollowedChain,
  startBlock: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const table of [
      'chain_events',
      'chain_wallets',
      'chain_follower_blocks',
      'chain_follower_state',
    ] as const)
      await trx.deleteFrom(table).execute();
    await trx
      .insertInto('chain_follower_state')
      .values({
        chain_id: chain.chainId,
        token_address: chain.token,
        distributor_address: chain.distributor,
        block_number: startBlock - 1,
        block_hash: null,
      })
      .execute();
  });
}

/** Runs `work` if the state is still at `expected`; false (nothing written) when another writer moved it. */
async function fromCursor(
  db: Kysely<DB>,
  expected: Cursor,
  work: (trx: Transaction<DB>) => Promise<void>,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const state = await trx
      .selectFrom('chain_follower_state')
      .select(['block_number', 'block_hash'])
      .forUpdate()
      .executeTakeFirst();
    if (!state || state.block_number !== expected.number || state.block_hash !== expected.hash)
      return false;
    await work(trx);
    return true;
  });
}

/** Records the distributor's `status` (null: unknown at this block, kept as it was) and brings this
 * server's rounds along: one the chain made active is published (members are told), one a
 * guardian cancelled is cancelled. Returns whether the active round changed. */
async function recordRounds(
  trx: Transaction<DB>,
  status: RoundStatus | null,
  block: number,
): Promise<boolean> {
  if (!status) return false;
  const before = await trx
    .selectFrom('chain_follower_state')
    .select('round_index')
    .executeTakeFirstOrThrow();
  const changed = before.round_index !== status.active;
  await trx
    .updateTable('chain_follower_state')
    .set({
      round_index: status.active,
      round_root: status.activeRoot,
      ...(changed ? { round_block: status.active === 0 ? null : block } : {}),
      latest_index: status.latest,
      latest_active_at: status.latestActiveAt,
      latest_cancelled: status.latestCancelled,
      claims_paused: status.claimsPaused,
    })
    .execute();
  if (status.active > 0)
    await trx
      .updateTable('distribution_rounds')
      .set({ status: 'published', published_at: sql`coalesce(published_at, now())` })
      .where('status', '=', 'in_review')
      .where('round_index', '<=', status.active)
      .execute();
  if (status.latestCancelled)
    await trx
      .updateTable('distribution_rounds')
      .set({ status: 'cancelled', cancelled_at: new Date() })
      .where('status', '=', 'in_review')
      .where('round_index', '=', status.latest)
      .execute();
  return changed;
}

/** Raises an alert for each root proposed on chain that is not the one this server built for its
 * round while it is still in review — when a guardian can still cancel it (round-watch.ts tells the
 * operators) — and resolves it when a guardian cancels the round. */
async function recordForeignRoots(
  trx: Transaction<DB>,
  events: ChainEvent[],
  status: RoundStatus | null,
): Promise<void> {
  for (const event of events) {
    if (event.kind === 'root_cancelled') {
      await trx
        .updateTable('round_alerts')
        .set({ resolved_at: new Date() })
        .where('kind', '=', 'foreign_root')
        .where('round_index', '=', event.round_index)
        .where('resolved_at', 'is', null)
        .execute();
      continue;
    }
    if (event.kind !== 'root_proposed') continue;
    const inReview =
      status !== null &&
      status.latest === event.round_index &&
      status.active < status.latest &&
      !status.latestCancelled;
    if (!inReview) continue;
    const own = await trx
      .selectFrom('distribution_rounds')
      .select('root')
      .where('round_index', '=', event.round_index!)
      .executeTakeFirst();
    if (own?.root === event.root) continue;
    await trx
      .insertInto('round_alerts')
      .values({
        kind: 'foreign_root',
        round_index: event.round_index,
        detail: JSON.stringify({
          root: event.root,
          total: event.amount,
          activeAt: new Date(event.active_at! * 1000).toISOString(),
          ...(own ? { ownRoot: own.root } : {}),
        }),
        block_number: event.block_number,
        tx_hash: event.tx_hash,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/** Records blocks after `expected` up to `to`: their events, the wallets' figures, the rounds. */
export async function applyBlocks(
  db: Kysely<DB>,
  expected: Cursor,
  to: { number: number; hash: string },
  head: number,
  events: ChainEvent[],
  status: RoundStatus | null,
): Promise<boolean> {
  return fromCursor(db, expected, async (trx) => {
    for (let start = 0; start < events.length; start += INSERT_BATCH) {
      await trx
        .insertInto('chain_events')
        .values(events.slice(start, start + INSERT_BATCH))
        .execute();
    }
    const deltas = [...walletDeltas(events)].map(([address, d]) => ({
      address,
      reme_balance: d.balance,
      claimed: d.claimed,
      block_number: to.number,
    }));
    for (let start = 0; start < deltas.length; start += INSERT_BATCH) {
      await trx
        .insertInto('chain_wallets')
        .values(deltas.slice(start, start + INSERT_BATCH))
        .onConflict((oc) =>
          oc.column('address').doUpdateSet({
            reme_balance: sql`chain_wallets.reme_balance + excluded.reme_balance`,
            claimed: sql`chain_wallets.claimed + excluded.claimed`,
            block_number: sql`excluded.block_number`,
          }),
        )
        .execute();
    }
    await trx
      .insertInto('chain_follower_blocks')
      .values({ block_number: to.number, block_hash: to.hash })
      .onConflict((oc) => oc.column('block_number').doUpdateSet({ block_hash: to.hash }))
      .execute();
    await sql`DELETE FROM chain_follower_blocks WHERE block_number < (SELECT block_number FROM chain_follower_blocks ORDER BY block_number DESC OFFSET ${KEPT_BLOCKS - 1} LIMIT 1)`.execute(
      trx,
    );
    await trx
      .updateTable('chain_follower_state')
      .set({
        block_number: to.number,
        block_hash: to.hash,
        head_number: head,
        synced_at: new Date(),
        attempted_at: new Date(),
        last_error: null,
      })
      .execute();
    const roundChanged = await recordRounds(trx, status, to.number);
    await recordForeignRoots(trx, events, status);
    await notifyWalletOwners(trx, [...deltas.map((d) => d.address)], roundChanged);
  });
}

/** Processed blocks below `below` whose hashes are kept, newest first. */
export function keptBlocks(
  db: Kysely<DB>,
  below: number,
): Promise<Array<{ block_number: number; block_hash: string }>> {
  return db
    .selectFrom('chain_follower_blocks')
    .select(['block_number', 'block_hash'])
    .where('block_number', '<', below)
    .orderBy('block_number', 'desc')
    .execute();
}

/** What a rollback took out of the index: each `Claimed` event the chain no longer has. */
export interface Vanished {
  claims: Array<{ account: string; txHash: string; blockNumber: number }>;
}

/** Runs inside the rollback's transaction, so what it records commits with the rollback or not at
 * all (a crash in between makes the next pass find the reorganisation again). */
export type RollbackListener = (trx: Transaction<DB>, vanished: Vanished) => Promise<void>;

/** Forgets everything after `ancestor` and recomputes the wallets from what remains, the rounds
 * from the distributor's `status` at `ancestor`; `listener` is told what vanished. */
export async function rollBackTo(
  db: Kysely<DB>,
  expected: Cursor,
  ancestor: Cursor,
  status: RoundStatus,
  listener?: RollbackListener,
): Promise<boolean> {
  return fromCursor(db, expected, async (trx) => {
    const undone = await trx
      .deleteFrom('chain_events')
      .where('block_number', '>', ancestor.number)
      .returning(['kind', 'from_address', 'to_address', 'tx_hash', 'block_number'])
      .execute();
    await trx
      .deleteFrom('chain_follower_blocks')
      .where('block_number', '>', ancestor.number)
      .execute();
    const touched = [
      ...new Set(
        undone
          .flatMap((e) => [e.from_address, e.to_address])
          .filter((a): a is string => a !== null),
      ),
    ];
    if (touched.length > 0) {
      await sql`
        UPDATE chain_wallets w SET
          reme_balance = coalesce((
            SELECT sum(CASE WHEN e.to_address = w.address THEN e.amount ELSE 0 END) - sum(CASE WHEN e.from_address = w.address THEN e.amount ELSE 0 END)
            FROM chain_events e WHERE e.kind = 'transfer' AND (e.to_address = w.address OR e.from_address = w.address)), 0),
          claimed = coalesce((SELECT sum(e.amount) FROM chain_events e WHERE e.kind = 'claimed' AND e.to_address = w.address), 0),
          block_number = ${ancestor.number}
        WHERE w.address = ANY(${touched}::text[])`.execute(trx);
    }
    await trx
      .updateTable('chain_follower_state')
      .set({ block_number: ancestor.number, block_hash: ancestor.hash })
      .execute();
    const roundChanged = await recordRounds(trx, status, ancestor.number);
    await notifyWalletOwners(trx, touched, roundChanged);
    const claims = undone
      .filter((e) => e.kind === 'claimed' && e.to_address !== null)
      .map((e) => ({ account: e.to_address!, txHash: e.tx_hash, blockNumber: e.block_number }));
    await listener?.(trx, { claims });
  });
}

/** A sync that reached the node but had no new block to record. */
export async function recordReached(db: Kysely<DB>, head: number): Promise<void> {
  const now = new Date();
  await db
    .updateTable('chain_follower_state')
    .set({ head_number: head, synced_at: now, attempted_at: now, last_error: null })
    .execute();
}

export async function recordFailure(db: Kysely<DB>, error: string): Promise<void> {
  await db
    .updateTable('chain_follower_state')
    .set({ attempted_at: new Date(), last_error: error.slice(0, 500) })
    .execute();
}

/** Tells the members whose wallets changed (or everyone, when the round changed) to read again. */
async function notifyWalletOwners(
  trx: Transaction<DB>,
  addresses: string[],
  everyone: boolean,
): Promise<void> {
  if (everyone) {
    await notifyMembers(trx, EVERY_MEMBER);
  } else if (addresses.length > 0) {
    const owners = await trx
      .selectFrom('user_wallets')
      .select('user_id')
      .where(sql<boolean>`wallet_address = ANY(${addresses}::text[])`)
      .execute();
    await notifyMembers(
      trx,
      owners.map((o) => o.user_id),
    );
  }
}
