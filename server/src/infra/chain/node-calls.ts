// Counts every JSON-RPC call made through a ChainNode, in total and by method, so tests and
// metrics can tell who asks the node what (member reads must ask it nothing).
import type { ChainNode } from './node';

export interface NodeCalls {
  total: number;
  byMethod: Record<string, number>;
}

export type CountedNode = ChainNode & { calls: NodeCalls };

/** `node` with each request counted (a failed one too: it reached for the node all the same). */
export function countedNode(node: ChainNode): CountedNode {
  const calls: NodeCalls = { total: 0, byMethod: {} };
  return {
    kind: node.kind,
    calls,
    request(args) {
      calls.total += 1;
      calls.byMethod[args.method] = (calls.byMethod[args.method] ?? 0) + 1;
      return node.request(args);
    },
    ...(node.onMined ? { onMined: node.onMined.bind(node) } : {}),
  };
}
