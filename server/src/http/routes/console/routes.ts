// The operator console's API (/api/console): members, a member's page and its actions, and the
// audit log. Every route needs an operator whose session passed two-factor sign-in
// (http/guards/console-scope.ts); every action is written to the audit log before it is answered.
import { Readable } from 'node:stream';
import { careActionResponse, errorResponse, okResponse } from '@crw/core';
import {
  auditQuery,
  auditResponse,
  consoleCareActionRequest,
  consoleMeResponse,
  idempotencyKeyHeader,
  memberDetailResponse,
  memberIdParams,
  memberSearchQuery,
  memberSearchResponse,
} from '@crw/core/console';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../../app-error';
import type { AppServices } from '../../../services';
import { confirmationMailFor } from '../../../domain/members/registration';
import { enqueueMail } from '../../../infra/mail/outbox';
import { creditCareAction } from '../../../domain/rewards/care-actions';
import { auditCsv, auditPage, recordAudit } from '../../../domain/operators/audit';
import { mailRoutes } from './mail';
import { memberDetail, searchMembers } from './members';
import { overviewRoutes } from './overview';
import { reviewRoutes } from './review';
import { roundRoutes } from './rounds';
import { operatorConsoleRoutes, type ConsoleOperator } from '../../guards/console-scope';

const operatorOf = (request: FastifyRequest): ConsoleOperator => request.operator!;
const refusals = { 401: errorResponse, 403: errorResponse };

export const consoleRoutes = (services: AppServices): FastifyPluginAsyncZod =>
  operatorConsoleRoutes(services.sessions, services.database, async (app) => {
    const db = services.database.db;
    const audit = (
      request: FastifyRequest,
      action: string,
      target: string | null,
      detail?: Record<string, unknown>,
    ) => recordAudit(db, request, operatorOf(request), action, target, detail);

    app.get(
      '/me',
      {
        schema: {
          summary: 'The operator the console opens for (403 for a member, or without two-factor)',
          response: { 200: consoleMeResponse, ...refusals },
        },
      },
      async (request) => {
        const op = operatorOf(request);
        return { userId: op.operatorId, email: op.operatorEmail, name: op.name };
      },
    );

    app.get(
      '/members',
      {
        schema: {
          summary: 'Members: search by the start of a name, e-mail, wallet or referral code',
          querystring: memberSearchQuery,
          response: { 200: memberSearchResponse, 400: errorResponse, ...refusals },
        },
      },
      async (request) => searchMembers(db, request.query),
    );

    app.get(
      '/members/:id',
      {
        schema: {
          summary: "A member's page: CAPs ledger, network, wallet and chain figures, claims, mails",
          params: memberIdParams,
          response: { 200: memberDetailResponse, 404: errorResponse, ...refusals },
        },
      },
      async (request) => {
        const detail = await memberDetail(db, request.params.id);
        if (!detail) throw new AppError(404, 'not_found', 'No member with that id.');
        // Opening a member's page reads their personal data: that is an action too.
        await audit(request, 'member.view', request.params.id);
        return detail;
      },
    );

    app.post(
      '/members/:id/care-actions',
      {
        schema: {
          summary: 'Credit a care action to the member (once per Idempotency-Key)',
          params: memberIdParams,
          headers: idempotencyKeyHeader,
          body: consoleCareActionRequest,
          response: {
            200: careActionResponse,
            201: careActionResponse,
            400: errorResponse,
            404: errorResponse,
            409: errorResponse,
            ...refusals,
          },
        },
      },
      async (request, reply) => {
        const { caps, description } = request.body;
        const idempotencyKey = request.headers['idempotency-key'];
        const result = await creditCareAction(db, {
          idempotencyKey,
          userId: request.params.id,
          caps,
          description,
        });
        if (result.outcome === 'unknown_member')
          throw new AppError(404, 'not_found', 'No member with that id.');
        await audit(request, 'care-action.credit', request.params.id, {
          caps,
          description,
          outcome: result.outcome,
        });
        if (result.outcome === 'conflict') throw new AppError(409, 'idempotency_conflict');
        const credited = result.outcome === 'credited';
        return reply.status(credited ? 201 : 200).send({ credited, userId: result.memberId, caps });
      },
    );

    app.post(
      '/members/:id/resend-confirmation',
      {
        schema: {
          summary: 'Send the member a new confirmation link',
          params: memberIdParams,
          response: { 200: okResponse, 404: errorResponse, 409: errorResponse, ...refusals },
        },
      },
      async (request) => {
        const detail = await memberDetail(db, request.params.id);
        if (!detail) throw new AppError(404, 'not_found', 'No member with that id.');
        if (detail.member.confirmed) throw new AppError(409, 'already_confirmed');
        await enqueueMail(
          db,
          await confirmationMailFor(
            { signingKey: services.signingKey, publicUrl: services.config.publicUrl },
            {
              userId: detail.member.id,
              email: detail.member.email,
              wallet: detail.member.wallet ?? '',
            },
          ),
        );
        services.worker.wake();
        await audit(request, 'member.resend-confirmation', request.params.id);
        return { ok: true as const };
      },
    );

    app.get(
      '/audit',
      {
        schema: {
          summary: 'The audit log, newest first',
          querystring: auditQuery,
          response: { 200: auditResponse, 400: errorResponse, ...refusals },
        },
      },
      async (request) => auditPage(db, request.query.before),
    );

    app.get(
      '/audit.csv',
      { schema: { summary: 'The whole audit log as CSV' } },
      async (request, reply) => {
        await audit(request, 'audit.export', null);
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="operator-audit.csv"')
          .header('cache-control', 'no-store');
        return reply.send(Readable.from(auditCsv(db)));
      },
    );
    await app.register(overviewRoutes(services));
    await app.register(mailRoutes(services));
    await app.register(roundRoutes(services));
    await app.register(reviewRoutes(services));
  });
