// Rebuilds the embedded chain from its journal at start. Each entry is mined at its journaled block
// number and timestamp and the block hash compared, so a difference in state, receipts or time
// shows at the entry where it starts (before, replay mined at new timestamps and a contract reading
// block.timestamp diverged, after which the install never started again). A divergence stops the
// start naming the entry, or with CHAIN_JOURNAL_ON_DIVERGENCE=archive cuts the journal there.
import { createDevChain, type DevChain } from '@crw/contracts';
import { Transaction, Wallet, toQuantity } from 'ethers';
import type { Log } from '../../logging';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { CHAIN_OPERATOR_KEY_FILE, type EmbeddedChainKeys } from './embedded-keys';
import {
  archiveJournal,
  type OnJournalDropped,
  minedBlock,
  readJournal,
  recordBlocks,
  type JournalEntry,
  type MinedBlock,
} from './journal';

export interface Divergence {
  seq: number;
  txHash: string;
  detail: string;
}

export class ChainReplayError extends Error {
  constructor(readonly divergence: Divergence) {
    super(
      `chain replay diverged at journal entry ${divergence.seq} (transaction ${divergence.txHash}): ${divergence.detail}. ` +
        'To start from the chain as it was before this entry, set CHAIN_JOURNAL_ON_DIVERGENCE=archive for one start ' +
        '(docs/operations.md, "Embedded chain: replay and recovery").',
    );
  }
}

export interface RestoreOptions {
  /** The genesis accounts; the journal replays only with the keys it was made with. */
  keys: EmbeddedChainKeys;
  /** 'archive': move the diverging entry and every later one to chain_journal_archive, then start. */
  onDivergence: 'stop' | 'archive';
  /** Told which transactions an archiving took away (journal.ts). */
  onDropped?: OnJournalDropped;
  log: Log;
}

/** A new embedded chain with every journal entry replayed (or those before a divergence, archiving the rest). */
export async function restoreChain(
  db: Kysely<DB>,
  options: RestoreOptions,
): Promise<{ chain: DevChain; replayed: number }> {
  const journal = await readJournal(db);
  const accounts = [options.keys.operator, options.keys.faucet];
  let chain = await createDevChain(accounts);
  let outcome = otherOperator(journal, options.keys) ?? (await replayEntries(chain, journal));
  if (outcome.divergence) {
    const { divergence } = outcome;
    if (options.onDivergence !== 'archive') throw new ChainReplayError(divergence);
    const dropped = await archiveJournal(
      db,
      divergence.seq,
      `replay diverged: ${divergence.detail}`,
      options.onDropped,
    );
    options.log.warn(
      { ...divergence, fromSeq: divergence.seq, ...dropped },
      'embedded chain: journal archived from the diverging entry on',
    );
    chain = await createDevChain(accounts);
    outcome = await replayEntries(
      chain,
      journal.filter((entry) => entry.seq < divergence.seq),
    );
    if (outcome.divergence) throw new ChainReplayError(outcome.divergence);
  }
  await recordBlocks(db, outcome.recorded);
  return { chain, replayed: outcome.replayed };
}

/**
 * The journal starts with the operator deploying the contracts. Signed by another key, it was made
 * with other keys than DATA_DIR holds (another DATA_DIR, or an install from before per-install
 * keys, whose operator was Hardhat's public test key): say so rather than what the node refuses.
 */
function otherOperator(journal: JournalEntry[], keys: EmbeddedChainKeys): Replay | undefined {
  const first = journal[0];
  const signer = first && parsedSigner(first.raw);
  const operator = new Wallet(keys.operator).address;
  if (!first || !signer || signer === operator) return undefined;
  const detail = `it was signed by ${signer}, but this install's operator (DATA_DIR/${CHAIN_OPERATOR_KEY_FILE}) is ${operator}: the journal was made with other keys than DATA_DIR holds`;
  return {
    replayed: 0,
    recorded: [],
    divergence: { seq: first.seq, txHash: first.txHash, detail },
  };
}

/** Bytes that do not parse are left to the replay, which reports what the node says of them. */
function parsedSigner(raw: string): string | null {
  try {
    return Transaction.from(raw).from;
  } catch {
    return null;
  }
}

interface Replay {
  replayed: number;
  /** Blocks of entries that were journaled without one, as mined now. */
  recorded: Array<{ seq: number; block: MinedBlock }>;
  divergence?: Divergence;
}

async function replayEntries(chain: DevChain, entries: JournalEntry[]): Promise<Replay> {
  const recorded: Replay['recorded'] = [];
  let latest = await latestBlock(chain);
  for (const [replayed, entry] of entries.entries()) {
    const diverged = (detail: string): Replay => ({
      replayed,
      recorded,
      divergence: { seq: entry.seq, txHash: entry.txHash, detail },
    });
    const expected = entry.block;
    if (expected) {
      if (expected.number <= latest.number)
        return diverged(
          `the journal puts it in block ${expected.number}, but the chain is already at block ${latest.number}`,
        );
      if (expected.number > latest.number + 1) {
        await chain.request({
          method: 'hardhat_mine',
          params: [toQuantity(expected.number - latest.number - 1)],
        });
        latest = await latestBlock(chain);
      }
      if (expected.timestamp <= latest.timestamp)
        return diverged(
          `the journal gives block ${expected.number} timestamp ${expected.timestamp}, not after block ${latest.number}'s ${latest.timestamp}`,
        );
      await chain.request({
        method: 'evm_setNextBlockTimestamp',
        params: [toQuantity(expected.timestamp)],
      });
    }
    let hash: unknown;
    try {
      hash = await chain.request({ method: 'eth_sendRawTransaction', params: [entry.raw] });
    } catch (error) {
      return diverged(`the node refused it (${(error as Error).message})`);
    }
    if (hash !== entry.txHash) return diverged(`its raw bytes hash to ${String(hash)}`);
    const mined = await minedBlock(chain, entry.txHash);
    if (!mined) return diverged('the node did not mine it');
    if (expected && (mined.number !== expected.number || mined.hash !== expected.hash)) {
      return diverged(
        `block ${mined.number} has hash ${mined.hash}, the journal recorded block ${expected.number} with ${expected.hash}`,
      );
    }
    if (!expected) recorded.push({ seq: entry.seq, block: mined });
    latest = mined;
  }
  return { replayed: entries.length, recorded };
}

async function latestBlock(chain: DevChain): Promise<Pick<MinedBlock, 'number' | 'timestamp'>> {
  const block = (await chain.request({
    method: 'eth_getBlockByNumber',
    params: ['latest', false],
  })) as { number: string; timestamp: string };
  return { number: Number(block.number), timestamp: Number(block.timestamp) };
}
