// A member's network as /api/referrals/network answers it, for the community components' tests.
import type { NetworkMember, NetworkStats } from '@crw/core';

/** One person in the network: a level-1 friend with no name given unless told otherwise. */
export const networkMember = (
  over: Partial<NetworkMember> & { referred_id: string },
): NetworkMember => ({
  parent_id: null,
  level: 1,
  created_at: '2026-03-01T10:00:00.000Z',
  name: null,
  short_address: null,
  ...over,
});

/** The answer for these people, with its counts per level. */
export function networkOf(hierarchy: NetworkMember[]): NetworkStats {
  const count = (level: number) => hierarchy.filter((h) => h.level === level).length;
  return {
    success: true,
    data: {
      hierarchy,
      level_counts: { level1: count(1), level2: count(2), level3: count(3) },
      total_network_size: hierarchy.length,
    },
  };
}
