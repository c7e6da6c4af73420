// GET /api/events: server-sent events for the signed-in member ("changed" when their data did, and
// "signed-out" when the session the stream was opened with ends: signed out in another tab or
// device, revoked from the account page, replaced by a password change, or the account deleted).
// One session holds at most EVENT_STREAMS_PER_SESSION streams and one client address at most
// EVENT_STREAMS_PER_CLIENT: a new stream past either closes the oldest ("superseded", with a long
// retry so a forgotten tab does not fight the new one), so no one can hold open files by the
// thousand (an audit held 17,110 streams from one session).
import { memberRoutes } from '../../guards/member-scope';
import { EVERY_SESSION, markSessionSeen } from '../../../infra/identity/session';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { randomInt } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { AppServices } from '../../../services';
import { clientNetwork } from '../../guards/client-network';

const HEARTBEAT_MS = 25_000;
/** An open page marks its session as seen (the account page's "last seen") this often. */
const SEEN_EVERY_HEARTBEATS = 12;
/** A browser whose stream dropped (its server process stopped) tries again after a delay drawn
 * between these, its own for each stream: a process's thousands of streams come back spread over
 * 2.5 s, not in one burst on the process that remains, and all within the 5 s a member may wait
 * (bench/soak.ts: 1-4 s left the slowest 1 % of 1,000 streams back after 5.7 s). */
const RECONNECT_MIN_MS = 500;
const RECONNECT_SPREAD_MS = 2_500;
/** A superseded stream's browser waits this long before it tries again. */
const SUPERSEDED_RETRY_MS = 300_000;

/** Open streams by owner (a session, a client address), oldest first. */
class StreamsBy {
  readonly #by = new Map<string, Array<() => void>>();
  constructor(readonly max: number) {}

  /** Adds a stream's closer; closes the owner's oldest past the cap. Returns the removal. */
  add(owner: string, close: () => void): () => void {
    const list = this.#by.get(owner) ?? [];
    list.push(close);
    this.#by.set(owner, list);
    while (list.length > this.max) list.shift()!();
    return () => {
      const at = list.indexOf(close);
      if (at >= 0) list.splice(at, 1);
      if (list.length === 0 && this.#by.get(owner) === list) this.#by.delete(owner);
    };
  }
}

export const eventRoutes =
  (services: AppServices): FastifyPluginAsync =>
  async (app) => {
    const open = new Set<ServerResponse>();
    const bySession = new StreamsBy(services.config.EVENT_STREAMS_PER_SESSION);
    const byClient = new StreamsBy(services.config.EVENT_STREAMS_PER_CLIENT);
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
          const retry = RECONNECT_MIN_MS + randomInt(RECONNECT_SPREAD_MS);
          send(`retry: ${retry}\nevent: ready\ndata: {}\n\n`);
          open.add(res);
          const unsubscribe = services.events.subscribe(userId, () =>
            send(`event: changed\ndata: ${JSON.stringify({ at: new Date().toISOString() })}\n\n`),
          );
          const heartbeat = setInterval(() => {
            send(': keep-alive\n\n');
            if (++beats % SEEN_EVERY_HEARTBEATS === 0) seen();
          }, HEARTBEAT_MS);
          let leaveSession = () => {};
          let leaveClient = () => {};
          const stop = () => {
            clearInterval(heartbeat);
            unsubscribe();
            stopWatching();
            leaveSession();
            leaveClient();
            open.delete(res);
          };
          const superseded = () => {
            send(`retry: ${SUPERSEDED_RETRY_MS}\nevent: superseded\ndata: {}\n\n`);
            stop();
            if (!res.writableEnded) res.end();
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
          // Last: taking a place may close this owner's oldest stream (never this one).
          leaveSession = bySession.add(key, superseded);
          leaveClient = byClient.add(clientNetwork(request.ip), superseded);
        },
      );
    }
  };
