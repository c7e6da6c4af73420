// getClaimData for the signed-in member, and every published round's whole tree as JSON
// (OpenZeppelin StandardMerkleTree's dump format) so anyone can audit it.
import { claimDataResponse, errorResponse, INT4_MAX } from '@crw/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../app-error';
import { requireUserId } from '../../auth/session';
import { claimData, currentRound } from '../../distribution/claims';
import { treeJson } from '../../distribution/tree-json';
import type { AppServices } from '../../services';

export const claimRoutes =
  (services: AppServices): FastifyPluginAsyncZod =>
  async (app) => {
    const { database, auth, chain } = services;

    app.get('/claim', { schema: { summary: 'The member’s claim data (getClaimData)', response: { 200: claimDataResponse, 401: errorResponse, 503: errorResponse } } }, async (request) => {
      const userId = await requireUserId(auth, request);
      const round = await currentRound(chain).catch((error: unknown) => {
        request.log.error({ err: error }, 'chain read failed');
        throw new AppError(503, 'chain_unavailable');
      });
      return claimData(database.db, round, userId);
    });

    app.get(
      '/distributions/:index/tree.json',
      { schema: { summary: 'A published round’s whole merkle tree (StandardMerkleTree dump)', params: z.object({ index: z.coerce.number().int().min(1).max(INT4_MAX) }) } },
      async (request, reply) => {
        const round = await database.db
          .selectFrom('distribution_rounds')
          .select(['round_index', 'nodes'])
          .where('round_index', '=', request.params.index)
          .where('status', '=', 'published')
          .executeTakeFirst();
        if (!round) throw new AppError(404, 'not_found', 'No published round with that number.');
        reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'public, max-age=31536000, immutable');
        return reply.send(treeJson(database.db, round.round_index, round.nodes));
      },
    );
  };
