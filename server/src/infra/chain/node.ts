// The JSON-RPC node the server and /rpc talk to: the embedded Hardhat Network (its mined
// transactions journaled in the database with their blocks and replayed at start) or a remote URL
// (Sepolia).
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { appendToJournal, minedBlock } from './journal';
import { restoreChain, type RestoreOptions } from './replay';

export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** An EIP-1193 request function; failures throw an Error carrying a JSON-RPC `code` and `data`. */
export interface ChainNode {
  kind: 'embedded' | 'remote';
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
  /** Embedded chain: `listener` runs after each transaction it mines, before the send answers. */
  onMined?(listener: () => Promise<void>): void;
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

/** `node`'s answer to one call, or a NodeError (-32000) once `ms` have passed without one. */
export async function requestWithin(
  node: ChainNode,
  args: { method: string; params?: unknown[] },
  ms: number,
): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new NodeError(-32000, `The chain did not answer within ${ms} ms`)),
      ms,
    );
  });
  try {
    return await Promise.race([node.request(args), late]);
  } finally {
    clearTimeout(timer);
  }
}

function asNodeError(error: unknown): NodeError {
  const e = error as { code?: unknown; message?: string; data?: unknown };
  return new NodeError(
    typeof e.code === 'number' ? e.code : -32603,
    e.message ?? 'node error',
    e.data,
  );
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

/** The embedded chain rebuilt from its journal; each transaction it mines is journaled with its block. */
export async function openEmbeddedNode(
  db: Kysely<DB>,
  options: RestoreOptions,
): Promise<ChainNode & { replayed: number }> {
  const { chain, replayed } = await restoreChain(db, options);
  const sends = new Queue();
  const minedListeners: Array<() => Promise<void>> = [];
  return {
    kind: 'embedded',
    replayed,
    async request({ method, params = [] }) {
      const call = () =>
        chain
          .request({ method, params })
          .catch((error: unknown) => Promise.reject(asNodeError(error)));
      if (method !== 'eth_sendRawTransaction') return call();
      const sent = await sends.run(async () => {
        const hash = (await call()) as string;
        // Automining mines it at once (it refuses nonce gaps), so its block is known here.
        await appendToJournal(db, hash, String(params[0]), await minedBlock(chain, hash));
        return hash;
      });
      // Outside the queue, since a listener reads the chain (the follower indexes the new block);
      // the transaction is mined whatever a listener makes of it.
      for (const listener of minedListeners) await listener().catch(() => undefined);
      return sent;
    },
    onMined: (listener) => void minedListeners.push(listener),
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
      const body = (await response.json().catch(() => undefined)) as
        { result?: unknown; error?: RpcError } | undefined;
      if (!body) throw new NodeError(-32603, `the chain node answered ${response.status}`);
      if (body.error) throw new NodeError(body.error.code, body.error.message, body.error.data);
      return body.result;
    },
  };
}
