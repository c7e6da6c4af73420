import * as z from 'zod/mini';

/** GET /api/health: 200 when the database answers, 503 otherwise; same body either way. */
export const healthResponse = z.object({
  status: z.enum(['ok', 'degraded', 'draining']),
  version: z.string(),
  uptimeSeconds: z.number(),
  database: z.object({
    status: z.enum(['up', 'down']),
    kind: z.enum(['pglite', 'postgres']),
  }),
  mail: z.object({
    transport: z.enum(['smtp', 'dev-mailbox']),
    status: z.enum(['ok', 'failing', 'unknown']),
    pending: z.int(),
    lastError: z.nullable(z.string()),
  }),
  /** As the chain follower last saw it (no call to the node): `status` is its last attempt's. */
  chain: z.object({
    status: z.enum(['up', 'down']),
    kind: z.enum(['embedded', 'remote']),
    chainId: z.int(),
    /** The node's head at the follower's last success. */
    blockNumber: z.nullable(z.int()),
    tokenAddress: z.string(),
    distributorAddress: z.string(),
    follower: z.object({
      /** This process leads (follows the chain); another one does otherwise. */
      leading: z.boolean(),
      confirmations: z.int(),
      processedBlock: z.nullable(z.int()),
      /** Head minus the last processed block (CHAIN_CONFIRMATIONS of it by design). */
      blocksBehind: z.nullable(z.int()),
      secondsSinceSuccess: z.nullable(z.int()),
      /** The last attempt's error (only with the operator key). */
      lastError: z.nullable(z.string()),
    }),
  }),
});
