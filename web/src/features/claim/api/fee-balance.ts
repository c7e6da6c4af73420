import { feeBalanceResponse } from '@crw/core';
import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** GET /api/claim/fee-balance: the wallet's ETH, read from the chain at each arrival on the claim
 * screen (never kept: gcTime 0 drops it when the screen closes, so no earlier answer is reused). */
export const feeBalanceQuery = queryOptions({
  queryKey: ['fee-balance'],
  queryFn: () => apiFetch('/api/claim/fee-balance', feeBalanceResponse),
  staleTime: 0,
  gcTime: 0,
  retry: false,
});
