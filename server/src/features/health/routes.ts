import { healthResponse, publicConfigResponse } from '@crw/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { hasBearer } from '../../auth/bearer';
import type { AppServices } from '../../services';
import { version } from '../../version';

export const healthRoutes =
  (services: AppServices): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/health',
      { schema: { summary: 'Service health (the mail error text only with the operator key)', response: { 200: healthResponse, 503: healthResponse } } },
      async (request, reply) => {
        const { database, transport, worker } = services;
        const databaseUp = await database.ping();
        const pending = databaseUp
          ? Number(
              (
                await database.db
                  .selectFrom('mail_outbox')
                  .select((eb) => eb.fn.countAll().as('n'))
                  .where('status', '=', 'pending')
                  .executeTakeFirstOrThrow()
              ).n,
            )
          : 0;
        const { chain } = services;
        const blockNumber = await chain.provider.getBlockNumber().catch(() => null);
        const body = {
          status: databaseUp ? ('ok' as const) : ('degraded' as const),
          version,
          uptimeSeconds: Math.round(process.uptime()),
          database: { status: databaseUp ? ('up' as const) : ('down' as const), kind: database.kind },
          // The transport's own error text (hosts, user names) is for the operator's eyes only.
          mail: { transport: transport.kind, pending, status: worker.delivery.status, lastError: hasBearer(request, services.operatorKey) ? worker.delivery.lastError : null },
          chain: {
            status: blockNumber === null ? ('down' as const) : ('up' as const),
            kind: chain.node.kind,
            chainId: chain.chainId,
            blockNumber,
            tokenAddress: chain.token.target as string,
            distributorAddress: chain.distributor.target as string,
          },
        };
        return reply.status(databaseUp ? 200 : 503).send(body);
      },
    );
  
    app.get('/config', { schema: { summary: 'Public configuration for the web app', response: { 200: publicConfigResponse } } }, async () => ({
      links: {
        mainSite: services.config.MAIN_SITE_URL,
        terms: services.config.TERMS_URL,
        help: services.config.HELP_URL,
        market: services.config.MARKET_URL,
      },
      chain: {
        chainId: services.chain.chainId,
        tokenAddress: services.chain.token.target as string,
        distributorAddress: services.chain.distributor.target as string,
        explorerUrl: services.config.EXPLORER_URL ?? null,
        exchangeUrl: services.config.EXCHANGE_URL,
      },
    }));
  };
