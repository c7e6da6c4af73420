// GET /api/events: server-sent events for the signed-in member ("changed" when their data did).
import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { AppServices } from '../services';

const HEARTBEAT_MS = 25_000;

export async function registerEventRoutes(app: FastifyInstance, services: AppServices): Promise<void> {
  const open = new Set<ServerResponse>();
  // Streams never end by themselves: close them first so shutdown can finish.
  app.addHook('preClose', async () => {
    for (const res of open) res.end();
  });

  app.get('/api/events', { schema: { summary: 'Server-sent events for the signed-in member', hide: false } }, async (request, reply) => {
    const userId = await services.sessions.requireUserId(request);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
      'x-request-id': request.id,
    });
    res.write('retry: 3000\nevent: ready\ndata: {}\n\n');
    open.add(res);
    const unsubscribe = services.events.subscribe(userId, () => res.write(`event: changed\ndata: ${JSON.stringify({ at: new Date().toISOString() })}\n\n`));
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    request.raw.once('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(res);
    });
  });
}
