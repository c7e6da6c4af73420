import { faucetFor, healthResponse, isTestNetwork, publicConfigResponse } from '@crw/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { hasBearer } from '../guards/bearer';
import { readFollowerState } from '../../domain/indexer/follower-store';
import { figuresAsOf } from '../../domain/distribution/claims';
import { pendingMailCount } from '../../infra/mail/outbox';
import type { AppServices } from '../../services';
import { version } from '../../version';

export const healthRoutes =
  (services: AppServices): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/health',
      {
        schema: {
          summary: 'Service health (error texts only with the operator key)',
          response: { 200: healthResponse, 503: healthResponse },
        },
      },
      async (request, reply) => {
        const { database, transport, worker } = services;
        const databaseUp = await database.ping();
        const pending = databaseUp ? await pendingMailCount(database.db) : 0;
        const { chain, follower } = services;
        // The follower's view, so health checks never add calls to the node.
        const state = databaseUp
          ? await readFollowerState(database.db).catch(() => undefined)
          : undefined;
        const asOf = figuresAsOf(state);
        const operator = hasBearer(request, services.operatorKey);
        const { draining } = services.lifecycle;
        const body = {
          status: draining
            ? ('draining' as const)
            : databaseUp
              ? ('ok' as const)
              : ('degraded' as const),
          version,
          uptimeSeconds: Math.round(process.uptime()),
          database: {
            status: databaseUp ? ('up' as const) : ('down' as const),
            kind: database.kind,
          },
          // The transport's own error text (hosts, user names) is for the operator's eyes only.
          mail: {
            transport: transport.kind,
            pending,
            status: worker.delivery.status,
            lastError: operator ? worker.delivery.lastError : null,
          },
          chain: {
            status: asOf.chainReachable ? ('up' as const) : ('down' as const),
            kind: chain.node.kind,
            chainId: chain.chainId,
            blockNumber: state?.head_number ?? null,
            tokenAddress: chain.token.target as string,
            distributorAddress: chain.distributor.target as string,
            follower: {
              leading: follower.leading,
              confirmations: services.config.chainConfirmations,
              processedBlock: asOf.block,
              blocksBehind:
                asOf.block === null || state?.head_number == null
                  ? null
                  : state.head_number - asOf.block,
              secondsSinceSuccess: asOf.ageSeconds,
              lastError: operator ? (state?.last_error ?? null) : null,
            },
          },
        };
        return reply.status(databaseUp && !draining ? 200 : 503).send(body);
      },
    );

    app.get(
      '/config',
      {
        schema: {
          summary: 'Public configuration for the web app',
          response: { 200: publicConfigResponse },
        },
      },
      async () => ({
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
        eth: {
          priceGbp: services.config.ETH_PRICE_GBP,
          testNetwork: isTestNetwork(services.chain.chainId, services.config.FAUCET_URL),
          faucetUrl: faucetFor(services.chain.chainId, services.config.FAUCET_URL),
        },
        conversion: {
          open: services.config.CONVERSION_OPEN,
          capsPerReme: services.config.CONVERSION_CAPS_PER_REME,
        },
      }),
    );
  };
