// GET /api/events: server-sent events for the signed-in member ("changed" when their data did, and
// "signed-out" when the session the stream was opened with ends: signed out in another tab or
// device, revoked from the account page, replaced by a password change, or the account deleted).
import { memberRoutes } from '../../guards/member-scope';
import { EVERY_SESSION, markSessionSeen } from '../../../infra/identity/session';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { AppServices } from '../../../services';

const HEARTBEAT_MS = 25_000;
/** An open page marks its session as seen (the account page's "last seen") this often. */
const SEEN_EVERY_HEARTBEATS = 12;

export const eventRoutes =
  (services: AppServices): FastifyPluginAsync =>
  async (app) => {
    const open = new Set<ServerResponse>();
    // Streams never end by themselves: close them first so shutdown can finish.
    app.addHook('preClose', async () => {
      for (const res of open) if (!res.writableEnded) res.end();
    });

    await app.register(memberRoutes(services.sessions, async (member) => eventStream(member)));

    function eventStream(member: FastifyInstance) {
      member.get(
        '/events',
        { schema: { summary: 'Server-sent events for the signed-in member', hide: false } },
        async (request, reply) => {
          const { userId, token, key } = request.member;
          const seen = () =>
            void markSessionSeen(services.database.db, token).catch((error: unknown) => {
              request.log.debug({ err: error }, 'could not mark the session as seen');
            });
          seen();
          let beats = 0;
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
          /** Nothing is written once the stream ended: a notice for the member may still arrive after a
           * "signed-out" (a password change ends the other sessions and then announces the change). */
          const send = (text: string) => {
            if (!res.writableEnded && !res.destroyed) res.write(text);
          };
          send('retry: 3000\nevent: ready\ndata: {}\n\n');
          open.add(res);
          const unsubscribe = services.events.subscribe(userId, () =>
            send(`event: changed\ndata: ${JSON.stringify({ at: new Date().toISOString() })}\n\n`),
          );
          const heartbeat = setInterval(() => {
            send(': keep-alive\n\n');
            if (++beats % SEEN_EVERY_HEARTBEATS === 0) seen();
          }, HEARTBEAT_MS);
          const stop = () => {
            clearInterval(heartbeat);
            unsubscribe();
            stopWatching();
            open.delete(res);
          };
          const signedOut = () => {
            send('event: signed-out\ndata: {}\n\n');
            stop();
            if (!res.writableEnded) res.end();
          };
          const stopWatching = services.sessions.cache.onEnded((ended) => {
            if (ended === key) signedOut();
            // Notices may have been missed: ask again whether this session still stands.
            else if (ended === EVERY_SESSION)
              void services.sessions.current(request).then(
                (still) => (still ? undefined : signedOut()),
                () => undefined,
              );
          });
          request.raw.once('close', stop);
        },
      );
    }
  };
