// The contracts' events the chain follower reads: the token's Transfer, the distributor's Claimed,
// RootProposed and RootCancelled, decoded from eth_getLogs answers into chain_events rows; and the
// distributor's status() (which round is active, which is in review), read at a block.
import { artifact } from '@crw/contracts';
import { Interface, toQuantity } from 'ethers';
import type { ChainEventsTable } from '../db/schema';

const tokenEvents = new Interface(artifact('RemeToken').abi);
const distributorEvents = new Interface(artifact('RewardsDistributor').abi);
const TRANSFER = tokenEvents.getEvent('Transfer')!.topicHash;
const CLAIMED = distributorEvents.getEvent('Claimed')!.topicHash;
const ROOT_PROPOSED = distributorEvents.getEvent('RootProposed')!.topicHash;
const ROOT_CANCELLED = distributorEvents.getEvent('RootCancelled')!.topicHash;

export const ZERO_ADDRESS = `0x${'0'.repeat(40)}`;

/** The contracts, lowercase. */
export interface FollowedContracts {
  token: string;
  distributor: string;
}

/** A log as a JSON-RPC node answers it. */
export interface RpcLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  blockHash: string;
  transactionHash: string;
  logIndex: string;
  removed?: boolean;
}

/** A row of chain_events as the follower builds it (the amount as a decimal string). */
export type ChainEvent = Omit<ChainEventsTable, 'amount'> & { amount: string };

/** eth_getLogs parameters for blocks `from` to `to` (inclusive) of both contracts. */
export function logFilter(contracts: FollowedContracts, from: number, to: number) {
  return {
    fromBlock: toQuantity(from),
    toBlock: toQuantity(to),
    address: [contracts.token, contracts.distributor],
    topics: [[TRANSFER, CLAIMED, ROOT_PROPOSED, ROOT_CANCELLED]],
  };
}

/** The row for `log`, or null for a log of another contract or event. */
export function decodeLog(contracts: FollowedContracts, log: RpcLog): ChainEvent | null {
  const address = log.address.toLowerCase();
  const place = {
    block_number: Number(log.blockNumber),
    log_index: Number(log.logIndex),
    block_hash: log.blockHash,
    tx_hash: log.transactionHash,
    from_address: null,
    to_address: null,
    round_index: null,
    root: null,
    active_at: null,
  };
  const topic = log.topics[0];
  if (address === contracts.token && topic === TRANSFER) {
    const { args } = tokenEvents.parseLog(log)!;
    return {
      ...place,
      kind: 'transfer',
      from_address: String(args[0]).toLowerCase(),
      to_address: String(args[1]).toLowerCase(),
      amount: String(args[2]),
    };
  }
  if (address === contracts.distributor && topic === CLAIMED) {
    const { args } = distributorEvents.parseLog(log)!;
    return {
      ...place,
      kind: 'claimed',
      to_address: String(args[0]).toLowerCase(),
      amount: String(args[1]),
    };
  }
  if (address === contracts.distributor && topic === ROOT_PROPOSED) {
    const { args } = distributorEvents.parseLog(log)!;
    return {
      ...place,
      kind: 'root_proposed',
      round_index: Number(args[0]),
      root: String(args[1]).toLowerCase(),
      amount: String(args[2]),
      active_at: Number(args[4]),
    };
  }
  if (address === contracts.distributor && topic === ROOT_CANCELLED) {
    const { args } = distributorEvents.parseLog(log)!;
    return {
      ...place,
      kind: 'root_cancelled',
      round_index: Number(args[0]),
      from_address: String(args[1]).toLowerCase(),
      amount: String(args[2]),
    };
  }
  return null;
}

/** What `events` add to each address's REME balance and claimed amount (the zero address left out). */
export function walletDeltas(
  events: ChainEvent[],
): Map<string, { balance: bigint; claimed: bigint }> {
  const deltas = new Map<string, { balance: bigint; claimed: bigint }>();
  const add = (address: string | null, balance: bigint, claimed: bigint) => {
    if (!address || address === ZERO_ADDRESS) return;
    const delta = deltas.get(address) ?? { balance: 0n, claimed: 0n };
    deltas.set(address, { balance: delta.balance + balance, claimed: delta.claimed + claimed });
  };
  for (const event of events) {
    const amount = BigInt(event.amount);
    if (event.kind === 'transfer') {
      add(event.from_address, -amount, 0n);
      add(event.to_address, amount, 0n);
    } else if (event.kind === 'claimed') {
      add(event.to_address, 0n, amount);
    }
  }
  return deltas;
}

/** The distributor's rounds at a block (its status()): the active round and its root, the newest
 * proposed, when that one pays, whether it was cancelled, whether claims are paused. */
export interface RoundStatus {
  active: number;
  activeRoot: string | null;
  latest: number;
  latestActiveAt: number | null;
  latestCancelled: boolean;
  claimsPaused: boolean;
}

/** The eth_call parameters of status() at `block`. */
export function statusCall(distributor: string, block: number) {
  return [
    { to: distributor, data: distributorEvents.encodeFunctionData('status') },
    toQuantity(block),
  ];
}

/** Decodes status()'s answer; a block before the distributor existed answers '0x': no round. */
export function decodeStatus(answer: string): RoundStatus {
  if (answer === '0x')
    return {
      active: 0,
      activeRoot: null,
      latest: 0,
      latestActiveAt: null,
      latestCancelled: false,
      claimsPaused: false,
    };
  const [active, root, latest, activeAt, cancelled, paused] =
    distributorEvents.decodeFunctionResult('status', answer);
  return {
    active: Number(active),
    activeRoot: Number(active) === 0 ? null : String(root).toLowerCase(),
    latest: Number(latest),
    latestActiveAt: Number(latest) === 0 ? null : Number(activeAt),
    latestCancelled: Boolean(cancelled),
    claimsPaused: Boolean(paused),
  };
}
