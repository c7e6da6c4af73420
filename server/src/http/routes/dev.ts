// The dev mailbox (registered only outside production, with the dev mailbox transport): read what
// the dev transport delivered, and queue a test mail through the real outbox to check the mail
// set-up end to end. It holds every mailed link, so it answers only this machine, asked by its
// loopback name.
import {
  deleteAccountResponse,
  devMailListQuery,
  devMailListResponse,
  devMailSendRequest,
  devMailSendResponse,
} from '@crw/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { AppError } from '../../app-error';
import { memberRoutes } from '../guards/member-scope';
import { enqueueMail } from '../../infra/mail/outbox';
import { linksIn } from '../../infra/mail/transports';
import type { AppServices } from '../../services';

const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

/** Straight from this machine: the socket's address (not request.ip, which X-Forwarded-For can
 * set) is loopback, and no proxy forwarded it (a local reverse proxy makes every visitor local). */
function fromThisMachine(request: FastifyRequest): boolean {
  const address = request.socket.remoteAddress ?? '';
  const loopback = address === '::1' || /^(::ffff:)?127\./.test(address);
  return loopback && FORWARDING_HEADERS.every((name) => request.headers[name] === undefined);
}

/** The names of this machine a browser sends as Host, with any port. A page on another site whose
 * name was made to resolve to 127.0.0.1 (DNS rebinding) sends its own name, and is refused. */
const LOOPBACK_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/i;

/** Asked for by this machine's name, not by a site that rebound its own name to this machine. */
const askedByLoopbackName = (request: FastifyRequest) =>
  LOOPBACK_HOST.test(request.headers.host ?? '');

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const devRoutes =
  (services: AppServices): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', async (request) => {
      if (!fromThisMachine(request) || !askedByLoopbackName(request))
        throw new AppError(404, 'not_found');
    });

    const list = async (to?: string) => {
      let query = services.database.db
        .selectFrom('dev_mailbox')
        .selectAll()
        .orderBy('id', 'desc')
        .limit(100);
      if (to) query = query.where('to_address', '=', to.toLowerCase());
      return (await query.execute()).map((m) => ({
        id: m.id,
        to: m.to_address,
        subject: m.subject,
        text: m.text_body,
        links: linksIn(m.text_body),
        deliveredAt: m.delivered_at.toISOString(),
      }));
    };

    app.get(
      '/mail.json',
      {
        schema: {
          hide: true,
          querystring: devMailListQuery,
          response: { 200: devMailListResponse },
        },
      },
      async (request) => ({
        messages: await list(request.query.to),
      }),
    );

    app.get(
      '/mail',
      { schema: { hide: true, querystring: devMailListQuery } },
      async (request, reply) => {
        const messages = await list(request.query.to);
        const items = messages
          .map(
            (
              m,
            ) => `<article><h2>${escapeHtml(m.subject)}</h2><p>To ${escapeHtml(m.to)} · ${m.deliveredAt}</p>
<pre>${escapeHtml(m.text)}</pre>${m.links.map((l) => `<p><a href="${escapeHtml(l)}">${escapeHtml(l)}</a></p>`).join('')}</article>`,
          )
          .join('<hr>');
        return reply.type('text/html')
          .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dev mailbox</title><link rel="icon" href="/favicon.svg" type="image/svg+xml"></head>
<body><h1>Dev mailbox</h1>${items || '<p>No mail yet.</p>'}</body></html>`);
      },
    );

    app.post(
      '/mail',
      { schema: { hide: true, body: devMailSendRequest, response: { 202: devMailSendResponse } } },
      async (request, reply) => {
        const id = await services.database.db.transaction().execute((trx) =>
          enqueueMail(trx, {
            to: request.body.to.toLowerCase(),
            subject: request.body.subject,
            text: request.body.text,
          }),
        );
        services.worker.wake();
        return reply.status(202).send({ id, status: 'queued' as const });
      },
    );

    // The test-only account deletion: delete_current_user() for the signed-in member.
    await app.register(
      memberRoutes(services.sessions, async (member) => {
        member.delete(
          '/account',
          { schema: { hide: true, response: { 200: deleteAccountResponse } } },
          async (request) => {
            const result = await sql<{
              result: { success: boolean; message: string };
            }>`SELECT delete_current_user(${request.member.userId}) AS result`.execute(
              services.database.db,
            );
            return result.rows[0]?.result ?? { success: false, message: 'Deletion failed' };
          },
        );
      }),
    );
  };
