// GET /api/rewards/held: the member's credits that do not count yet — held for a while, waiting
// for the community's check, or not credited — with when they will (docs/product.md).
import * as z from 'zod/mini';

export const heldRewardsResponse = z.object({
  items: z.array(
    z.object({
      caps: z.number(),
      kind: z.enum(['signup', 'referral']),
      level: z.nullable(z.number()),
      /** held: released at releaseAt; review: an organiser looks first; void: not credited. */
      state: z.enum(['held', 'review', 'void']),
      releaseAt: z.nullable(z.string()),
      at: z.string(),
    }),
  ),
});
export type HeldRewards = z.infer<typeof heldRewardsResponse>;
export type HeldReward = HeldRewards['items'][number];
