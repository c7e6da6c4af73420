// The chain as the browser sees it: JSON-RPC through our /rpc (never the node directly), and the
// claim transaction waiting to be mined, kept in storage so the Processing card survives a reload.
import { readStored, removeStored, writeStored } from './storage';

export class RpcError extends Error {
  constructor(
    message: string,
    readonly data?: string,
  ) {
    super(message);
  }
}

export async function rpc<T = string>(method: string, params: unknown[] = []): Promise<T> {
  let response: Response;
  try {
    response = await fetch('/rpc', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
  } catch {
    throw new RpcError('Could not reach the server. Check your connection and try again.');
  }
  const body = (await response.json().catch(() => ({}))) as {
    result?: T;
    error?: { message: string; data?: string };
  };
  if (body.error)
    throw new RpcError(
      body.error.message,
      typeof body.error.data === 'string' ? body.error.data : undefined,
    );
  if (!response.ok) throw new RpcError(`The server answered ${response.status}.`);
  return body.result as T;
}

export interface PendingClaim {
  hash: string;
  amount: string;
  sentAt: number;
}

export function readPendingClaim(): PendingClaim | null {
  const raw = readStored('pendingClaim');
  try {
    return raw ? (JSON.parse(raw) as PendingClaim) : null;
  } catch {
    return null; // not ours any more: no card
  }
}

export function writePendingClaim(claim: PendingClaim | null): void {
  if (claim) writeStored('pendingClaim', JSON.stringify(claim));
  else removeStored('pendingClaim');
}

export interface Receipt {
  status: string;
  gasUsed: string;
}

export const receiptOf = (hash: string) => rpc<Receipt | null>('eth_getTransactionReceipt', [hash]);
