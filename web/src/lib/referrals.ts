import { networkStatsResponse } from '@crw/core';
import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from './api-client';

/** The member's network (its network stats), shared by the builder pages. */
export const networkQuery = queryOptions({
  queryKey: ['referrals', 'network'],
  queryFn: () => apiFetch('/api/referrals/network', networkStatsResponse),
});
