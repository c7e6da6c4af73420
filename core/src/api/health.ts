import * as z from 'zod/mini';

/** GET /api/health: 200 when the database answers, 503 otherwise; same body either way. */
export const healthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
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
  chain: z.object({
    status: z.enum(['up', 'down']),
    kind: z.enum(['embedded', 'remote']),
    chainId: z.int(),
    blockNumber: z.nullable(z.int()),
    tokenAddress: z.string(),
    distributorAddress: z.string(),
  }),
});
export type HealthResponse = z.infer<typeof healthResponse>;
