// How often hand-off codes may be tried. The sister app redeems for every member of the site from
// its one server, so it is counted by its client secret (HANDOFF_REDEEM_RATE_LIMIT_PER_MINUTE), not
// per address; each code gets a few tries. A caller without the secret is counted per address
// under the attempt limit before it is refused. Counted in the database, as every attempt limit.
import { createHash } from 'node:crypto';
import { HANDOFF_CODE_TTL_S } from '@crw/core';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../../app-error';
import { storeClient } from './attempt-limits';
import type { Config } from '../../config';
import type { DB } from '../../infra/db/schema';

/** Tries one code gets (a retry after a lost answer, not a search). */
export const TRIES_PER_CODE = 5;

const digest = (value: string) => createHash('sha256').update(value).digest('base64url');

export interface RedeemLimits {
  /** preHandler for the authenticated sister app: one redemption of its allowance and one try of
   * the code, or 429. */
  check(request: FastifyRequest): Promise<void>;
}

export function redeemLimits(config: Config, db: Kysely<DB>, clientSecret: string): RedeemLimits {
  const counter = (keyPrefix: string, points: number, duration: number) =>
    new RateLimiterPostgres({
      storeClient: storeClient(db),
      storeType: 'client',
      tableName: 'attempt_limits',
      tableCreated: true,
      keyPrefix,
      points,
      duration,
    });
  const perClient = counter('handoff-client', config.HANDOFF_REDEEM_RATE_LIMIT_PER_MINUTE, 60);
  // A code is worthless once expired, so its count need not outlive it.
  const perCode = counter('handoff-code', TRIES_PER_CODE, HANDOFF_CODE_TTL_S);
  // Keyed by digests: the table holds neither the secret nor a code.
  const client = digest(clientSecret);

  return {
    check: async (request) => {
      const { code } = request.body as { code: string };
      try {
        await perClient.consume(client);
        await perCode.consume(digest(code));
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        request.log.warn('hand-off redeem limit reached');
        throw new AppError(429, 'rate_limited');
      }
    },
  };
}
