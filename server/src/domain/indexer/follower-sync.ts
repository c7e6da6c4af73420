// One pass of the chain follower: check that the last processed block is still the node's (or roll
// back to the newest kept block that is), then read the events of every block up to the head less
// the confirmations, in ranges, and record them. Each block's hash is read before its logs, so a
// reorg in between shows as a changed hash at the next pass, which then re-reads.
import { toQuantity } from 'ethers';
import type { Log } from '../../logging';
import type { Kysely } from 'kysely';
import type { DB } from '../../infra/db/schema';
import {
  decodeLog,
  decodeStatus,
  logFilter,
  statusCall,
  type RoundStatus,
  type RpcLog,
} from '../../infra/chain/chain-events';
import {
  applyBlocks,
  keptBlocks,
  readFollowerState,
  recordReached,
  resetIndex,
  rollBackTo,
  type Cursor,
  type FollowedChain,
  type RollbackListener,
} from './follower-store';
import type { ChainNode } from '../../infra/chain/node';

/** Blocks per eth_getLogs call (public nodes commonly refuse much wider ranges). */
const LOG_RANGE = 1_000;

export interface SyncSettings {
  db: Kysely<DB>;
  node: ChainNode;
  chain: FollowedChain;
  confirmations: number;
  startBlock: number;
  log: Log;
  /** Told, inside the rollback's transaction, what a reorganisation took away. */
  onRollBack?: RollbackListener;
}

/** Another process recorded blocks since this pass read the state: it stops without writing. */
export class FollowerOvertaken extends Error {}

interface BlockRef {
  number: number;
  hash: string;
}

async function blockAt(node: ChainNode, tag: number | 'latest'): Promise<BlockRef | null> {
  const block = (await node.request({
    method: 'eth_getBlockByNumber',
    params: [tag === 'latest' ? tag : toQuantity(tag), false],
  })) as { number: string; hash: string } | null;
  return block ? { number: Number(block.number), hash: block.hash } : null;
}

/** The distributor's rounds at `block`, or null when the node cannot say (a node that keeps no
 * state that old while catching up: the last range's status, near the head, says it). */
async function statusAt(s: SyncSettings, block: number, required: boolean) {
  if (block < 0) return decodeStatus('0x');
  try {
    return decodeStatus(
      (await s.node.request({
        method: 'eth_call',
        params: statusCall(s.chain.distributor, block),
      })) as string,
    );
  } catch (error) {
    if (required) throw error;
    return null;
  }
}

function sameChain(
  state: { chain_id: number; token_address: string; distributor_address: string },
  chain: FollowedChain,
): boolean {
  return (
    state.chain_id === chain.chainId &&
    state.token_address === chain.token &&
    state.distributor_address === chain.distributor
  );
}

export async function syncOnce(s: SyncSettings): Promise<{ head: number; processed: number }> {
  let state = await readFollowerState(s.db);
  if (!state || !sameChain(state, s.chain)) {
    if (state)
      s.log.warn(
        { was: state.chain_id, chainId: s.chain.chainId },
        'chain follower: another chain or other contracts; indexing again from the start block',
      );
    await resetIndex(s.db, s.chain, s.startBlock);
    state = (await readFollowerState(s.db))!;
  }
  const head = await blockAt(s.node, 'latest');
  if (!head) throw new Error('the node has no latest block');
  let cursor: Cursor = { number: state.block_number, hash: state.block_hash };
  if (cursor.hash !== null) {
    const current = cursor.number === head.number ? head : await blockAt(s.node, cursor.number);
    if (current?.hash !== cursor.hash) cursor = await rollBack(s, cursor);
  }
  const target = head.number - s.confirmations;
  if (cursor.number >= target) {
    await recordReached(s.db, head.number);
    return { head: head.number, processed: cursor.number };
  }
  while (cursor.number < target) {
    const to = Math.min(target, cursor.number + LOG_RANGE);
    const block = to === head.number ? head : await blockAt(s.node, to);
    if (!block) throw new Error(`the node has no block ${to}`);
    const logs = (await s.node.request({
      method: 'eth_getLogs',
      params: [logFilter(s.chain, cursor.number + 1, to)],
    })) as RpcLog[];
    const events = logs
      .filter((log) => !log.removed)
      .flatMap((log) => decodeLog(s.chain, log) ?? []);
    const status: RoundStatus | null = await statusAt(s, to, to === target);
    if (!(await applyBlocks(s.db, cursor, block, head.number, events, status)))
      throw new FollowerOvertaken('another process recorded these blocks first');
    cursor = block;
  }
  return { head: head.number, processed: cursor.number };
}

/** Rolls back to the newest kept block the node still has with the same hash (or the start). */
async function rollBack(s: SyncSettings, from: Cursor): Promise<Cursor> {
  let ancestor: Cursor = { number: s.startBlock - 1, hash: null };
  for (const kept of await keptBlocks(s.db, from.number)) {
    if ((await blockAt(s.node, kept.block_number))?.hash === kept.block_hash) {
      ancestor = { number: kept.block_number, hash: kept.block_hash };
      break;
    }
  }
  const status = (await statusAt(s, ancestor.number, true))!;
  if (!(await rollBackTo(s.db, from, ancestor, status, s.onRollBack)))
    throw new FollowerOvertaken('another process rolled back first');
  s.log.warn(
    { from: from.number, to: ancestor.number },
    'chain follower: the chain reorganised; rolled back to the last block it still has',
  );
  return ancestor;
}
