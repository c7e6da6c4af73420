import { activityResponse, type UserDetails } from '@crw/core';
import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** The member's activity, newest first. Asked again only when a figure the dashboard shows changes
 * (a credit, a conversion, a round, a claim), not on every 10-second refresh of the figures. */
export const activityQuery = (details: UserDetails) =>
  queryOptions({
    queryKey: [
      'activity',
      details.caps.total,
      details.caps.converted,
      details.tokens.entitled,
      details.tokens.distributed,
      details.tokens.forClaiming,
      details.tokens.remeHeld,
    ],
    queryFn: () => apiFetch('/api/activity', activityResponse),
    placeholderData: (previous) => previous,
  });
