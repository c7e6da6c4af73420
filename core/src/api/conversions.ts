import * as z from 'zod/mini';

/** POST /api/conversions: convert care CAPs into REME paid in the next round
 * (docs/product.md#caps-and-reme). `requestId` makes a retried request convert once. */
export const conversionRequest = z.object({
  caps: z.int().check(z.positive(), z.maximum(100_000_000)),
  requestId: z.uuid(),
});

/** One conversion: the CAPs, the REME they bought (base units) and the round that paid it (null
 * until a round is published after it). */
export const conversion = z.object({
  caps: z.int(),
  reme: z.string(),
  convertedAt: z.string(),
  paidInRound: z.nullable(z.int()),
});
export type Conversion = z.infer<typeof conversion>;

/** 200: the conversion made (or, for a `requestId` already used, the one it made then). */
export const conversionResponse = z.object({ conversion });

/** GET /api/conversions: the member's conversions, newest first (at most 50). */
export const conversionsResponse = z.object({ items: z.array(conversion) });
