// GET /api/console/overview: the community's figures (domain/reports/overview.ts). Figures over a
// million members are not added up per request: each process keeps a snapshot, computed at most
// once a minute (OVERVIEW_MAX_AGE_SECONDS). A request gets the last snapshot at once and, when it
// is older than that, starts a refresh in the background; only the first request waits for one.
import { errorResponse } from '@crw/core';
import {
  consoleOverviewResponse,
  OVERVIEW_DAYS,
  OVERVIEW_MAX_AGE_SECONDS,
} from '@crw/core/console';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { blockTime, DayBlocks, journalTime } from '../../../domain/indexer/day-blocks';
import { computeOverview, type OverviewSources } from '../../../domain/reports/overview';
import { Snapshot } from '../../../lib/snapshot';
import type { AppServices } from '../../../services';

type OverviewServices = Pick<AppServices, 'database' | 'chain' | 'relayer' | 'config'>;

export const overviewSources = (services: OverviewServices): OverviewSources => ({
  db: services.database.db,
  chain: services.chain,
  relayerAddress: services.relayer?.address ?? null,
  rpcTimeoutMs: services.config.RPC_CALL_TIMEOUT_MS,
  chainStartBlock: services.config.CHAIN_START_BLOCK,
});

/** Registered inside the console's operator scope (routes.ts). */
export const overviewRoutes =
  (services: OverviewServices): FastifyPluginAsyncZod =>
  async (app) => {
    const dayBlocks = new DayBlocks(
      services.chain.node.kind === 'embedded'
        ? journalTime(services.database.db)
        : blockTime(services.chain.node, services.config.RPC_CALL_TIMEOUT_MS),
    );
    const snapshot = new Snapshot(
      async () => {
        const started = performance.now();
        const overview = await computeOverview(overviewSources(services), dayBlocks, {
          onChainError: (error) =>
            app.log.warn({ err: error }, 'console overview: claims per day not read'),
        });
        app.log.info(
          { ms: Math.round(performance.now() - started) },
          'console overview: figures computed',
        );
        return overview;
      },
      {
        maxAgeMs: OVERVIEW_MAX_AGE_SECONDS * 1000,
        onError: (error) => app.log.warn({ err: error }, 'console overview: refresh failed'),
      },
    );
    app.addHook('onClose', () => snapshot.settled());

    app.get(
      '/overview',
      {
        schema: {
          summary: `The community's figures and their last ${OVERVIEW_DAYS} days, computed at most once a minute`,
          response: { 200: consoleOverviewResponse, 401: errorResponse, 403: errorResponse },
        },
      },
      async () => snapshot.get(),
    );
  };
