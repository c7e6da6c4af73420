// The operator API (Bearer OPERATOR_API_KEY): credit care actions (once per idempotency key),
// preview and publish distribution rounds, and the development chain's faucet.
import {
  careActionConflictResponse,
  careActionRequest,
  careActionResponse,
  errorMessages,
  errorResponse,
  fundDistributorResponse,
  fundRelayerRequest,
  fundRequest,
  fundResponse,
  publishRoundResponse,
  relayerStatusResponse,
  roundPreviewResponse,
} from '@crw/core';
import { operatorRoleRequest, operatorRoleResponse } from '@crw/core/console';
import { parseEther, type AbstractProvider } from 'ethers';
import type { FastifyTypeProviderDefault } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../../app-error';
import { requireOperator } from '../../guards/bearer';
import {
  fundDistributor,
  FundingRefused,
  type FundingRepair,
} from '../../../domain/distribution/fund-distributor';
import { publishOnce, PublishBusy, RoundConflict } from '../../../domain/distribution/publish-once';
import { previewRound } from '../../../domain/distribution/rounds';
import type { AppServices } from '../../../services';
import { relayerStatus, sponsorSettings } from '../../../domain/sponsorship/sponsor';
import { API_KEY_ACTOR, recordAudit } from '../../../domain/operators/audit';
import { creditCareAction } from '../../../domain/rewards/care-actions';
import { setOperatorRole } from '../../../domain/operators/roles';
import { backupPglite, backupPostgres } from '../../../domain/operators/backup';

/** A plain transfer costs 21,000 gas: refuse (400) what `from` cannot pay with its fee, before signing. */
async function expectFunds(
  provider: AbstractProvider,
  from: string,
  value: bigint,
  message: string,
): Promise<void> {
  const [balance, fees] = await Promise.all([provider.getBalance(from), provider.getFeeData()]);
  const fee = 21_000n * (fees.maxFeePerGas ?? fees.gasPrice ?? 0n);
  if (balance < value + fee) throw new AppError(400, 'invalid_request', message);
}

export const operatorRoutes =
  (services: AppServices): FastifyPluginAsyncZod =>
  async (app) => {
    const db = services.database.db;
    app.addHook('onRequest', async (request) => requireOperator(request, services.operatorKey));

    app.post(
      '/care-actions',
      {
        schema: {
          summary: 'Credit a care action (activity CAPs)',
          security: [{ bearerAuth: [] }],
          body: careActionRequest,
          response: {
            200: careActionResponse,
            201: careActionResponse,
            400: errorResponse,
            401: errorResponse,
            404: errorResponse,
            409: careActionConflictResponse,
          },
        },
      },
      async (request, reply) => {
        const { caps, idempotencyKey } = request.body;
        const result = await creditCareAction(db, request.body);
        if (result.outcome === 'unknown_member')
          throw new AppError(404, 'not_found', 'No member with that e-mail address or id.');
        const { memberId, outcome } = result;
        request.log.info({ memberId, caps, idempotencyKey, outcome }, 'care action');
        await recordAudit(db, request, API_KEY_ACTOR, 'care-action.credit', memberId, {
          caps,
          description: request.body.description,
          outcome,
          idempotencyKey,
        });
        if (outcome === 'conflict')
          return reply.status(409).send({
            code: 'idempotency_conflict' as const,
            message: errorMessages.idempotency_conflict,
            recorded: result.recorded,
          });
        const credited = outcome === 'credited';
        return reply.status(credited ? 201 : 200).send({ credited, userId: memberId, caps });
      },
    );

    app.post(
      '/operators',
      {
        schema: {
          summary:
            'Grant or revoke the operator role (the console; a confirmed member only); revoking signs the member out everywhere',
          security: [{ bearerAuth: [] }],
          body: operatorRoleRequest,
          response: {
            200: operatorRoleResponse,
            400: errorResponse,
            401: errorResponse,
            404: errorResponse,
            409: errorResponse,
          },
        },
      },
      async (request) => {
        const result = await setOperatorRole(db, request.body.email, request.body.operator);
        if (result.outcome !== 'done')
          throw result.outcome === 'unknown_member'
            ? new AppError(404, 'not_found', 'No member with that e-mail address.')
            : new AppError(
                409,
                'conflict',
                'This member has not confirmed their e-mail address yet: only a confirmed member can be an operator.',
              );
        const { outcome: _, endedSessions, ...answer } = result;
        for (const token of endedSessions) services.sessions.cache.forgetToken(token);
        await recordAudit(
          db,
          request,
          API_KEY_ACTOR,
          answer.operator ? 'operator.grant' : 'operator.revoke',
          answer.userId,
          {
            changed: answer.changed,
            ...(answer.operator ? {} : { sessionsEnded: endedSessions.length }),
          },
        );
        return answer;
      },
    );

    app.get(
      '/distributions/preview',
      {
        schema: {
          summary: 'Dry run of the next distribution round',
          security: [{ bearerAuth: [] }],
          response: { 200: roundPreviewResponse, 401: errorResponse },
        },
      },
      async () => previewRound(db),
    );

    app.post(
      '/distributions',
      {
        schema: {
          summary: 'Publish the next distribution round (or finish an interrupted one)',
          security: [{ bearerAuth: [] }],
          response: { 200: publishRoundResponse, 401: errorResponse, 409: errorResponse },
        },
      },
      async (request) => {
        // One publisher across every server process: the others answer 409 at once.
        try {
          const result = await publishOnce(services);
          request.log.info(result, 'distribution round');
          await recordAudit(db, request, API_KEY_ACTOR, 'round.publish', String(result.index), {
            ...result,
          });
          return result;
        } catch (error) {
          if (!(error instanceof PublishBusy || error instanceof RoundConflict)) throw error;
          request.log.warn({ err: error }, 'distribution round refused');
          throw new AppError(409, 'conflict', error.message);
        }
      },
    );

    app.post(
      '/fund',
      {
        schema: {
          summary: 'Development faucet: send ETH to an address (embedded chain only)',
          security: [{ bearerAuth: [] }],
          body: fundRequest,
          response: { 200: fundResponse, 400: errorResponse, 401: errorResponse },
        },
      },
      async (request) => {
        const { faucet, provider } = services.chain;
        if (!faucet)
          throw new AppError(
            400,
            'invalid_request',
            'The faucet exists only on the embedded development chain.',
          );
        const value = parseEther(request.body.eth);
        await expectFunds(provider, faucet.address, value, 'The faucet holds less ETH than that.');
        const tx = await faucet.sendTransaction({ to: request.body.address, value });
        await tx.wait();
        request.log.info(
          { address: request.body.address, eth: request.body.eth, txHash: tx.hash },
          'faucet',
        );
        await recordAudit(db, request, API_KEY_ACTOR, 'faucet.fund', request.body.address, {
          eth: request.body.eth,
          txHash: tx.hash,
        });
        return {
          txHash: tx.hash,
          balance: (await provider.getBalance(request.body.address)).toString(),
        };
      },
    );

    app.get(
      '/relayer',
      {
        schema: {
          summary: 'The sponsored-claims relayer: wallet, balance, spend today, queue',
          security: [{ bearerAuth: [] }],
          response: { 200: relayerStatusResponse, 401: errorResponse },
        },
      },
      async () => relayerStatus(db, sponsorSettings(services.config), services.relayer),
    );

    // The archive is bytes, not JSON: the default type provider lets the reply send a Buffer.
    app.withTypeProvider<FastifyTypeProviderDefault>().get(
      '/backup',
      {
        schema: {
          summary:
            'A backup archive: the database (PGlite between two transactions, or pg_dump) and the keys of DATA_DIR',
          security: [{ bearerAuth: [] }],
          response: { 401: errorResponse },
        },
      },
      async (request, reply) => {
        const { database, config } = services;
        const archive =
          database.kind === 'pglite'
            ? await backupPglite(database, config)
            : await backupPostgres(
                database,
                config.DATABASE_MIGRATION_URL ?? database.url!,
                config,
              );
        await recordAudit(db, request, API_KEY_ACTOR, 'backup.made', null, {
          bytes: archive.length,
        });
        return reply
          .header('content-type', 'application/gzip')
          .header('cache-control', 'no-store')
          .send(archive);
      },
    );

    app.post(
      '/distributor/fund',
      {
        schema: {
          summary: 'Send the distributor the REME its round owes beyond what it holds',
          security: [{ bearerAuth: [] }],
          response: { 200: fundDistributorResponse, 401: errorResponse, 409: errorResponse },
        },
      },
      async (request) => {
        let repair: FundingRepair;
        try {
          repair = await fundDistributor(db, services.chain, {
            confirmations: services.config.chainConfirmations,
            syncIndex: () => services.follower.syncNow(),
          });
        } catch (error) {
          if (error instanceof FundingRefused) throw new AppError(409, 'conflict', error.message);
          throw error;
        }
        const { status } = repair;
        if (repair.txHash) {
          request.log.info(
            { sent: repair.sent.toString(), txHash: repair.txHash, round: status.round },
            'distributor funded',
          );
          await recordAudit(
            db,
            request,
            API_KEY_ACTOR,
            'distributor.fund',
            String(services.chain.distributor.target),
            {
              sent: repair.sent.toString(),
              txHash: repair.txHash,
              round: status.round,
            },
          );
        }
        return {
          txHash: repair.txHash,
          sent: repair.sent.toString(),
          round: status.round,
          balance: status.balance.toString(),
          owed: status.owed.toString(),
          shortfall: status.shortfall.toString(),
        };
      },
    );

    app.post(
      '/relayer/fund',
      {
        schema: {
          summary: 'Send ETH from the operator’s account to the relayer',
          security: [{ bearerAuth: [] }],
          body: fundRelayerRequest,
          response: { 200: fundResponse, 400: errorResponse, 401: errorResponse },
        },
      },
      async (request) => {
        const relayer = services.relayer;
        if (!relayer)
          throw new AppError(
            400,
            'invalid_request',
            'Sponsored claims are off (SPONSOR_CLAIMS), so there is no relayer to fund.',
          );
        const value = parseEther(request.body.eth);
        if (value === 0n) throw new AppError(400, 'invalid_request', 'Send more than 0 ETH.');
        const { operator, provider } = services.chain;
        const tx = await services.chain.operatorTurn(async () => {
          await expectFunds(
            provider,
            operator.address,
            value,
            "The operator's account holds less ETH than that (and the transaction's fee).",
          );
          return operator.sendTransaction({ to: relayer.address, value });
        });
        await tx.wait(services.config.chainConfirmations || 1);
        relayer.balanceWei = await services.chain.provider.getBalance(relayer.address);
        request.log.info(
          { relayer: relayer.address, eth: request.body.eth, txHash: tx.hash },
          'relayer funded',
        );
        await recordAudit(db, request, API_KEY_ACTOR, 'relayer.fund', relayer.address, {
          eth: request.body.eth,
          txHash: tx.hash,
        });
        return { txHash: tx.hash, balance: relayer.balanceWei.toString() };
      },
    );
  };
