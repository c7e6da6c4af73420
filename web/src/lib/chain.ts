// The chain as the browser sees it: JSON-RPC through our /rpc (never the node directly), and the
// claim transaction waiting to be mined, kept in storage so the Processing card survives a reload.

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
  const body = (await response.json().catch(() => ({}))) as { result?: T; error?: { message: string; data?: string } };
  if (body.error) throw new RpcError(body.error.message, typeof body.error.data === 'string' ? body.error.data : undefined);
  if (!response.ok) throw new RpcError(`The server answered ${response.status}.`);
  return body.result as T;
}

export interface PendingClaim {
  hash: string;
  amount: string;
  sentAt: number;
}

const PENDING_CLAIM_KEY = 'claim-transaction';

export function readPendingClaim(): PendingClaim | null {
  try {
    const raw = localStorage.getItem(PENDING_CLAIM_KEY);
    return raw ? (JSON.parse(raw) as PendingClaim) : null;
  } catch {
    return null;
  }
}

export function writePendingClaim(claim: PendingClaim | null): void {
  try {
    if (claim) localStorage.setItem(PENDING_CLAIM_KEY, JSON.stringify(claim));
    else localStorage.removeItem(PENDING_CLAIM_KEY);
  } catch {
    // storage disabled: the card lasts until the page is left
  }
}

export interface Receipt {
  status: string;
  gasUsed: string;
}

export const receiptOf = (hash: string) => rpc<Receipt | null>('eth_getTransactionReceipt', [hash]);
