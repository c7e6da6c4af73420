// Graceful shutdown waits for the handlers still at work — including those whose client already
// left, which no open connection tells of — before the database closes under them.
import type { FastifyInstance, FastifyReply } from 'fastify';

const working = new WeakMap<FastifyInstance, Set<FastifyReply>>();

export function trackInFlight(app: FastifyInstance): void {
  const replies = new Set<FastifyReply>();
  working.set(app, replies);
  app.addHook('onRequest', async (_request, reply) => void replies.add(reply));
  app.addHook('onSend', async (_request, reply) => void replies.delete(reply));
  app.addHook('onResponse', async (_request, reply) => void replies.delete(reply));
}

/** Resolves when no handler is still working (a stream that has answered its headers is not
 * working: it ends with the server), or after `timeoutMs`. */
export async function drainInFlight(app: FastifyInstance, timeoutMs: number): Promise<void> {
  const replies = working.get(app);
  const deadline = Date.now() + timeoutMs;
  while (replies && [...replies].some((reply) => !reply.raw.headersSent) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
