import { sponsoredClaim, sponsorshipResponse, type SponsoredClaimRequest } from '@crw/core';
import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** GET /api/claim/sponsored: whether the community pays the fee now (and why not), and the latest
 * sponsored claim (the dashboard's Processing card follows it, also after a reload). */
export const sponsorshipQuery = queryOptions({
  queryKey: ['sponsorship'],
  queryFn: () => apiFetch('/api/claim/sponsored', sponsorshipResponse),
  staleTime: 0,
  retry: false,
});

export const requestSponsoredClaim = (body: SponsoredClaimRequest) =>
  apiFetch('/api/claim/sponsored', sponsoredClaim, { method: 'POST', body });
