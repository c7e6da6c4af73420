// getClaimData for the signed-in member (the round the chain follower indexed), the ETH balance the
// claim screen checks the fee against (the one member read that asks the node: fee-balance.ts),
// and every published round's whole tree as JSON (StandardMerkleTree's dump) so anyone can audit it.
import {
  claimDataResponse,
  errorResponse,
  feeBalanceResponse,
  INT4_MAX,
  okResponse,
  publicRoundsResponse,
  roundReportRequest,
  sponsoredClaim,
  sponsoredClaimRequest,
  sponsorshipResponse,
} from '@crw/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../../app-error';
import { requestWithin } from '../../../infra/chain/node';
import { claimData, followedRound } from '../../../domain/distribution/claims';
import { publicRounds } from '../../../domain/distribution/public-rounds';
import { reportRound } from '../../../domain/distribution/round-reports';
import { publishedRoundNodes, treeJson } from '../../../domain/distribution/tree-json';
import { signupNetwork } from '../../guards/client-network';
import { memberRoutes } from '../../guards/member-scope';
import { walletAddressOf } from '../../../domain/members/member';
import type { AppServices } from '../../../services';
import {
  latestSponsoredClaim,
  requestSponsoredClaim,
  sponsorSettings,
  sponsorship,
} from '../../../domain/sponsorship/sponsor';
import { limitPerMember } from '../../guards/member-rate-limit';
import { BalanceCache } from './fee-balance';

export const claimRoutes =
  (services: AppServices): FastifyPluginAsyncZod =>
  async (app) => {
    const { database, sessions, chain, config } = services;
    const sponsor = sponsorSettings(config);
    const balances = new BalanceCache(
      async (address) =>
        BigInt(
          (await requestWithin(
            chain.node,
            { method: 'eth_getBalance', params: [address, 'latest'] },
            config.RPC_CALL_TIMEOUT_MS,
          )) as string,
        ),
      { maxAgeMs: config.FEE_BALANCE_CACHE_MS },
    );
    chain.node.onMined?.(async () => balances.clear());
    const limitFeeBalance = limitPerMember('fee-balance', config.FEE_BALANCE_RATE_LIMIT_PER_MINUTE);
    const limitReports = limitPerMember('round-report', 5);

    // The distributor's review window, read once (it is fixed at deployment).
    let reviewSeconds: Promise<number> | undefined;
    const reviewPeriod = () =>
      (reviewSeconds ??= (chain.distributor.getFunction('reviewPeriod')() as Promise<bigint>).then(
        Number,
        (error: unknown) => {
          reviewSeconds = undefined;
          throw error;
        },
      ));

    app.get(
      '/rounds',
      {
        schema: {
          summary:
            'Every round on chain, for anyone: root, total, members, proposed and active times, transactions, tree.json',
          response: { 200: publicRoundsResponse, 503: errorResponse },
        },
      },
      async (_request, reply) => {
        const seconds = await reviewPeriod().catch(() => {
          throw new AppError(503, 'chain_unavailable');
        });
        reply.header('cache-control', 'public, max-age=15');
        return {
          chain: {
            chainId: chain.chainId,
            distributorAddress: String(chain.distributor.target),
            explorerUrl: config.EXPLORER_URL ?? null,
          },
          reviewHours: seconds / 3600,
          rounds: await publicRounds(database.db, seconds),
        };
      },
    );

    app.get(
      '/distributions/:index/tree.json',
      {
        schema: {
          summary: 'A published round’s whole merkle tree (StandardMerkleTree dump)',
          params: z.object({ index: z.coerce.number().int().min(1).max(INT4_MAX) }),
        },
      },
      async (request, reply) => {
        const round = await publishedRoundNodes(database.db, request.params.index);
        if (!round) throw new AppError(404, 'not_found', 'No published round with that number.');
        reply
          .header('content-type', 'application/json; charset=utf-8')
          .header('cache-control', 'public, max-age=31536000, immutable');
        return reply.send(treeJson(database.db, round.round_index, round.nodes));
      },
    );

    await app.register(
      memberRoutes(sessions, async (member) => {
        member.get(
          '/claim',
          {
            schema: {
              summary: 'The member’s claim data (getClaimData)',
              response: { 200: claimDataResponse, 401: errorResponse },
            },
          },
          async (request) =>
            claimData(database.db, await followedRound(database.db), request.member.userId),
        );

        member.get(
          '/claim/sponsored',
          {
            schema: {
              summary:
                'Whether the operator pays the claim fee now, and the member’s latest sponsored claim',
              response: { 200: sponsorshipResponse, 401: errorResponse },
            },
          },
          async (request) => {
            const { userId } = request.member;
            const relayer = services.relayer;
            if (relayer)
              return sponsorship(database.db, sponsor, relayer.fees, {
                userId,
                network: signupNetwork(request.ip),
              });
            return {
              available: false,
              reason: 'This community does not pay claim fees for its members.',
              latest: await latestSponsoredClaim(database.db, userId),
            };
          },
        );

        member.post(
          '/rounds/:index/report',
          {
            schema: {
              summary:
                'Something wrong? Tell the community: the member says their line in a round in review is wrong',
              params: z.object({ index: z.coerce.number().int().min(1).max(INT4_MAX) }),
              body: roundReportRequest,
              response: {
                201: okResponse,
                400: errorResponse,
                401: errorResponse,
                404: errorResponse,
                409: errorResponse,
                429: errorResponse,
              },
            },
          },
          async (request, reply) => {
            const { userId } = request.member;
            await limitReports(userId);
            const outcome = await reportRound(
              database.db,
              userId,
              request.params.index,
              request.body.message,
              config.publicUrl,
            );
            if (outcome === 'not_in_round')
              throw new AppError(404, 'not_found', 'You are not in this round.');
            if (outcome === 'not_in_review') throw new AppError(409, 'round_not_in_review');
            if (outcome === 'already_reported') throw new AppError(409, 'already_reported');
            return reply.code(201).send({ ok: true as const });
          },
        );

        member.post(
          '/claim/sponsored',
          {
            schema: {
              summary:
                'Ask the operator to claim for the member (signed claim request), fee paid by the relayer',
              body: sponsoredClaimRequest,
              response: {
                202: sponsoredClaim,
                400: errorResponse,
                401: errorResponse,
                409: errorResponse,
                503: errorResponse,
              },
            },
          },
          async (request, reply) => {
            const relayer = services.relayer;
            if (!relayer)
              throw new AppError(
                409,
                'sponsor_unavailable',
                'This community does not pay claim fees for its members. You can claim by paying the network fee yourself.',
              );
            const queued = await requestSponsoredClaim(
              database.db,
              chain,
              sponsor,
              relayer.fees,
              { userId: request.member.userId, network: signupNetwork(request.ip) },
              request.body,
            );
            relayer.wake();
            return reply.status(202).send(queued);
          },
        );

        member.get(
          '/claim/fee-balance',
          {
            schema: {
              summary:
                'The member’s ETH balance for the claim fee, read from the chain (shared for a few seconds)',
              response: {
                200: feeBalanceResponse,
                401: errorResponse,
                429: errorResponse,
                503: errorResponse,
              },
            },
          },
          async (request) => {
            await limitFeeBalance(request.member.userId);
            const address = await walletAddressOf(database.db, request.member.userId);
            if (!address) throw new AppError(401, 'unauthorized');
            try {
              return { ethBalance: (await balances.get(address.toLowerCase())).toString() };
            } catch (error) {
              request.log.warn({ err: error }, 'chain read failed');
              throw new AppError(503, 'chain_unavailable');
            }
          },
        );
      }),
    );
  };
