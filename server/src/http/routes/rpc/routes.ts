// POST /rpc: the browser's only way to the chain. Forwards an allow-list of JSON-RPC methods to
// the node (whose URL and key stay here), with calls and transactions held to the relay policy,
// each answered within a time limit; limits batch size and calls per IP per minute.
import type { FastifyPluginAsync } from 'fastify';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { requestWithin } from '../../../infra/chain/node';
import { clientNetwork } from '../../guards/client-network';
import type { AppServices } from '../../../services';
import { relayPolicy } from './relay-policy';

export const RPC_METHODS = new Set([
  'eth_chainId',
  'eth_blockNumber',
  'eth_getBalance',
  'eth_call',
  'eth_estimateGas',
  'eth_gasPrice',
  'eth_feeHistory',
  'eth_getTransactionCount',
  'eth_sendRawTransaction',
  'eth_getTransactionReceipt',
  'eth_getTransactionByHash',
]);

interface RpcCall {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

const failure = (id: unknown, code: number, message: string, data?: unknown) => ({
  jsonrpc: '2.0',
  id: id ?? null,
  error: data === undefined ? { code, message } : { code, message, data },
});

export const rpcRoutes =
  (services: AppServices): FastifyPluginAsync =>
  async (app) => {
    const { chain, config } = services;
    const limiter = new RateLimiterMemory({
      keyPrefix: 'rpc',
      points: config.RPC_RATE_LIMIT_PER_MINUTE,
      duration: 60,
    });
    const policy = relayPolicy(chain.token, chain.distributor, chain.chainId);
    const checks: Record<string, (params: unknown[]) => unknown[]> = {
      eth_call: policy.call,
      eth_estimateGas: policy.call,
      eth_sendRawTransaction: (params) => (policy.transaction(params), params),
    };

    async function forward(call: RpcCall | null): Promise<unknown> {
      // A batch may hold anything JSON allows: only objects are calls.
      if (typeof call !== 'object' || call === null || Array.isArray(call))
        return failure(null, -32600, 'Invalid request');
      const id = call.id ?? null;
      if (
        typeof call.method !== 'string' ||
        (call.params !== undefined && !Array.isArray(call.params))
      ) {
        return failure(id, -32600, 'Invalid request');
      }
      if (!RPC_METHODS.has(call.method))
        return failure(id, -32601, `Method not allowed: ${call.method}`);
      try {
        const params = (call.params as unknown[] | undefined) ?? [];
        const result = await requestWithin(
          chain.node,
          { method: call.method, params: checks[call.method]?.(params) ?? params },
          config.RPC_CALL_TIMEOUT_MS,
        );
        return { jsonrpc: '2.0', id, result };
      } catch (error) {
        const e = error as { code?: number; message?: string; data?: unknown };
        return failure(id, e.code ?? -32603, e.message ?? 'node error', e.data);
      }
    }

    app.post('/rpc', { schema: { hide: true } }, async (request, reply) => {
      const body = request.body as RpcCall | RpcCall[] | undefined;
      const calls = Array.isArray(body) ? body : [body ?? {}];
      if (calls.length === 0 || calls.length > config.RPC_MAX_BATCH) {
        return reply
          .status(400)
          .send(failure(null, -32600, `Batches hold 1 to ${config.RPC_MAX_BATCH} calls`));
      }
      try {
        await limiter.consume(clientNetwork(request.ip), calls.length);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        return reply
          .status(429)
          .header('retry-after', Math.ceil(rejection.msBeforeNext / 1000))
          .send(failure(null, -32005, 'Too many requests'));
      }
      const answers = [];
      for (const call of calls) answers.push(await forward(call));
      return Array.isArray(body) ? answers : answers[0];
    });
  };
