import { activityResponse } from '@crw/core';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { meQuery } from '../../../lib/session';

/** The member's activity, newest first. Asked again when something happens to the member (an event
 * on their stream: lib/member-events.ts refetches every query) and after their own actions
 * (`figuresChanged`), not on every 10-second refresh of the figures. */
export const activityQuery = queryOptions({
  queryKey: ['activity'],
  queryFn: () => apiFetch('/api/activity', activityResponse),
});

/** After an action of the member's that changes the dashboard's figures (a conversion, a claim):
 * the figures read again, and the activity with them. */
export const figuresChanged = (client: QueryClient) =>
  Promise.all([
    client.invalidateQueries({ queryKey: meQuery.queryKey }),
    client.invalidateQueries({ queryKey: activityQuery.queryKey }),
  ]);
