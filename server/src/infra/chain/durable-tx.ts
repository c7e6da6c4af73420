// Sending a transaction that was signed and recorded before it was sent (so a crash after the
// send cannot lose it): one rule, used by the distribution rounds, the relayer and `ops deploy`, for
// what a failed send means. Nodes word their refusals differently ("already known", "nonce too
// low", "replacement transaction underpriced", …), so the words are not trusted: the chain is
// asked instead whether the transaction is there (mined or pending) and whether its sender's
// nonce has gone past it.
import { Transaction, type Provider, type TransactionReceipt } from 'ethers';
import type { ChainNode } from './node';

/** A signed transaction as recorded before its send. */
export interface RecordedTransaction {
  hash: string;
  nonce: number;
  raw: string;
}

/** The recorded form of a signed transaction. */
export function recorded(raw: string): RecordedTransaction {
  const tx = Transaction.from(raw);
  return { hash: tx.hash!, nonce: tx.nonce, raw };
}

export type TransactionState =
  { kind: 'mined'; receipt: TransactionReceipt } | { kind: 'pending' } | { kind: 'unknown' };

export async function transactionState(
  provider: Provider,
  hash: string,
): Promise<TransactionState> {
  const receipt = await provider.getTransactionReceipt(hash);
  if (receipt) return { kind: 'mined', receipt };
  return (await provider.getTransaction(hash)) ? { kind: 'pending' } : { kind: 'unknown' };
}

/** Whether another transaction of `from`'s has taken `nonce`, so one signed with it can never be mined. */
export async function nonceTaken(
  provider: Provider,
  from: string,
  nonce: number,
): Promise<boolean> {
  return (await provider.getTransactionCount(from, 'latest')) > nonce;
}

/**
 * Sends `tx` (again). 'sent': the node took it; 'known': the chain has it already (mined or
 * waiting); 'nonce-taken': it was never mined and another transaction of `from`'s took its nonce,
 * so it never will be. Any other refusal is thrown.
 */
export async function sendRecorded(
  chain: { node: Pick<ChainNode, 'request'>; provider: Provider },
  from: string,
  tx: RecordedTransaction,
): Promise<'sent' | 'known' | 'nonce-taken'> {
  try {
    await chain.node.request({ method: 'eth_sendRawTransaction', params: [tx.raw] });
    return 'sent';
  } catch (error) {
    if ((await transactionState(chain.provider, tx.hash)).kind !== 'unknown') return 'known';
    if (await nonceTaken(chain.provider, from, tx.nonce)) return 'nonce-taken';
    throw error;
  }
}
