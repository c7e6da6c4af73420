import { activityOlderResponse, activityResponse, type ActivityItem } from '@crw/core';
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

/** Lines at most one page (30) long: a page that long may have older lines after it. */
export const ACTIVITY_PAGE = 30;

/** The page of the member's activity older than `last` (the oldest line shown). */
export const olderActivity = (last: ActivityItem) =>
  apiFetch(
    `/api/activity/older?${new URLSearchParams({ beforeAt: last.at, beforeId: last.id })}`,
    activityOlderResponse,
  );
