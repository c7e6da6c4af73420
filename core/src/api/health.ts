import { z } from 'zod';

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
    pending: z.number().int(),
    lastError: z.string().nullable(),
  }),
  chain: z.object({
    status: z.enum(['up', 'down']),
    kind: z.enum(['embedded', 'remote']),
    chainId: z.number().int(),
    blockNumber: z.number().int().nullable(),
    tokenAddress: z.string(),
    distributorAddress: z.string(),
  }),
});
export type HealthResponse = z.infer<typeof healthResponse>;
