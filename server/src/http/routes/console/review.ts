// The console's review queue (/api/console/review): every joining whose rewards are held, flagged
// first, and the operator's release or void of one, a network's or a referrer's — each decision
// in the audit log with its note and how many credits it settled.
import { errorResponse } from '@crw/core';
import {
  reviewDecisionRequest,
  reviewDecisionResponse,
  reviewQueueResponse,
} from '@crw/core/console';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../../app-error';
import type { AppServices } from '../../../services';
import { recordAudit } from '../../../domain/operators/audit';
import {
  CreditInRound,
  RoundBeingPublished,
  decideHeldRewards,
  reviewQueue,
  type ReviewTarget,
} from '../../../domain/rewards/holds';

const refusals = { 401: errorResponse, 403: errorResponse };

export const reviewRoutes =
  (services: AppServices): FastifyPluginAsyncZod =>
  async (app) => {
    const db = services.database.db;

    app.get(
      '/review',
      {
        schema: {
          summary: 'Joinings whose rewards are held, flagged first, with their signals',
          response: { 200: reviewQueueResponse, ...refusals },
        },
      },
      async () => ({
        holdHours: services.config.REWARD_HOLD_HOURS,
        subjects: await reviewQueue(db),
      }),
    );

    app.post(
      '/review/decide',
      {
        schema: {
          summary: 'Release or void the held rewards of joinings, a network’s or a referrer’s',
          body: reviewDecisionRequest,
          response: {
            200: reviewDecisionResponse,
            400: errorResponse,
            409: errorResponse,
            ...refusals,
          },
        },
      },
      async (request) => {
        const { outcome, note, subjects, network, referrer } = request.body;
        const target: ReviewTarget = subjects
          ? { subjects }
          : network !== undefined
            ? { network }
            : { referrer: referrer! };
        try {
          const settled = await decideHeldRewards(services.database, target, { outcome, note });
          await recordAudit(db, request, request.operator!, `rewards.${outcome}`, null, {
            ...target,
            note,
            subjects: settled.subjects,
            credits: settled.credits,
          });
          return { subjects: settled.subjects.length, credits: settled.credits };
        } catch (error) {
          if (error instanceof CreditInRound)
            throw new AppError(409, 'credit_in_published_round', error.message);
          if (error instanceof RoundBeingPublished)
            throw new AppError(409, 'conflict', error.message);
          throw error;
        }
      },
    );
  };
