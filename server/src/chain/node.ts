// The JSON-RPC node the server and /rpc talk to: the embedded Hardhat Network (its mined
// transactions journaled in the database and replayed at start) or a remote URL (Sepolia).
import { createDevChain } from '@crw/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';

export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** An EIP-1193 request function; failures throw an Error carrying a JSON-RPC `code` and `data`. */
export interface ChainNode {
  kind: 'embedded' | 'remote';
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

export class NodeError extends Error implements RpcError {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

function asNodeError(error: unknown): NodeError {
  const e = error as { code?: unknown; message?: string; data?: unknown };
  return new NodeError(typeof e.code === 'number' ? e.code : -32603, e.message ?? 'node error', e.data);
}

/** One at a time, so the journal's order is the order the chain mined them in. */
class Queue {
  #tail: Promise<unknown> = Promise.resolve();
  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(work);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}

/** The embedded chain with `accountKeys` as its genesis accounts, its journal replayed. */
export async function openEmbeddedNode(db: Kysely<DB>, accountKeys: readonly string[]): Promise<ChainNode & { replayed: number }> {
  const chain = await createDevChain(accountKeys);
  const journal = await db.selectFrom('chain_journal').select(['tx_hash', 'raw_tx']).orderBy('seq').execute();
  for (const { tx_hash, raw_tx } of journal) {
    const hash = await chain.request({ method: 'eth_sendRawTransaction', params: [raw_tx] });
    if (hash !== tx_hash) throw new Error(`chain replay diverged at ${tx_hash}`);
  }
  const sends = new Queue();
  return {
    kind: 'embedded',
    replayed: journal.length,
    async request({ method, params = [] }) {
      const call = () => chain.request({ method, params }).catch((error: unknown) => Promise.reject(asNodeError(error)));
      if (method !== 'eth_sendRawTransaction') return call();
      return sends.run(async () => {
        const hash = (await call()) as string;
        await db.insertInto('chain_journal').values({ tx_hash: hash, raw_tx: String(params[0]) }).onConflict((oc) => oc.column('tx_hash').doNothing()).execute();
        return hash;
      });
    },
  };
}

export function openRemoteNode(url: string): ChainNode {
  let id = 0;
  return {
    kind: 'remote',
    async request({ method, params = [] }) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
        signal: AbortSignal.timeout(30_000),
      }).catch(() => Promise.reject(new NodeError(-32603, 'the chain node could not be reached')));
      const body = (await response.json().catch(() => undefined)) as { result?: unknown; error?: RpcError } | undefined;
      if (!body) throw new NodeError(-32603, `the chain node answered ${response.status}`);
      if (body.error) throw new NodeError(body.error.code, body.error.message, body.error.data);
      return body.result;
    },
  };
}
