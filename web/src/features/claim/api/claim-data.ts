import { claimDataResponse } from '@crw/core';
import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** GET /api/claim (getClaimData): proof, distributedTokens, distributionIndex. */
export const claimDataQuery = queryOptions({
  queryKey: ['claim-data'],
  queryFn: () => apiFetch('/api/claim', claimDataResponse),
  staleTime: 0,
  retry: false,
});
