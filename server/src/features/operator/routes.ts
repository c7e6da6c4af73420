// The operator API (Bearer OPERATOR_API_KEY): credit care actions, once per idempotency key.
import { careActionRequest, careActionResponse, errorResponse } from '@crw/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { AppError } from '../../app-error';
import { requireOperator } from '../../auth/operator-key';
import type { AppServices } from '../../services';

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
          response: { 200: careActionResponse, 201: careActionResponse, 400: errorResponse, 401: errorResponse, 404: errorResponse },
        },
      },
      async (request, reply) => {
        const { idempotencyKey, email, userId, caps, description } = request.body;
        let query = db.selectFrom('profiles').select('id');
        query = email ? query.where('email', '=', email.toLowerCase()) : query.where('id', '=', userId!);
        const member = await query.executeTakeFirst();
        if (!member) throw new AppError(404, 'not_found', 'No member with that e-mail address or id.');
        const result = await sql<{ credited: boolean }>`
          SELECT credit_reward(${member.id}, ${`care:${idempotencyKey}`}, 'care_action', ${caps}, 0, NULL, NULL, ${description}) AS credited`.execute(db);
        const credited = result.rows[0]!.credited;
        request.log.info({ memberId: member.id, caps, idempotencyKey, credited }, 'care action');
        return reply.status(credited ? 201 : 200).send({ credited, userId: member.id, caps });
      },
    );
  };
