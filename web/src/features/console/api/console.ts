// The operator console's calls (/api/console): each answer parsed with core's schema.
import { careActionResponse, okResponse } from '@crw/core';
import {
  DRY_RUN_PAGE,
  dryRunRefreshResponse,
  dryRunResponse,
  publishStartedResponse,
  roundAlertsResponse,
  roundHistoryResponse,
  type DRY_RUN_FILTERS,
  auditResponse,
  consoleMeResponse,
  memberDetailResponse,
  memberSearchResponse,
  type MemberSort,
} from '@crw/core/console';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

export type DryRunFilter = (typeof DRY_RUN_FILTERS)[number];

export const consoleMeQuery = queryOptions({
  queryKey: ['console', 'me'],
  queryFn: () => apiFetch('/api/console/me', consoleMeResponse),
  retry: false,
  staleTime: 60_000,
});

export const membersQuery = (q: string, sort: MemberSort) =>
  infiniteQueryOptions({
    queryKey: ['console', 'members', q, sort],
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams({ sort });
      if (q) params.set('q', q);
      if (pageParam) params.set('cursor', pageParam);
      return apiFetch(`/api/console/members?${params.toString()}`, memberSearchResponse);
    },
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: (previous) => previous,
  });

export const memberQuery = (id: string) =>
  queryOptions({
    queryKey: ['console', 'member', id],
    queryFn: () => apiFetch(`/api/console/members/${encodeURIComponent(id)}`, memberDetailResponse),
  });

export const auditQuery = infiniteQueryOptions({
  queryKey: ['console', 'audit'],
  queryFn: ({ pageParam }) =>
    apiFetch(`/api/console/audit${pageParam ? `?before=${pageParam}` : ''}`, auditResponse),
  initialPageParam: 0,
  getNextPageParam: (last) => last.nextBefore ?? undefined,
});

/** Credits a care action; `idempotencyKey` stays the same when the operator retries. */
export const creditCareAction = (
  memberId: string,
  body: { caps: number; description: string },
  idempotencyKey: string,
) =>
  apiFetch(
    `/api/console/members/${encodeURIComponent(memberId)}/care-actions`,
    careActionResponse,
    {
      method: 'POST',
      body,
      headers: { 'idempotency-key': idempotencyKey },
    },
  );

export const resendConfirmation = (memberId: string) =>
  apiFetch(`/api/console/members/${encodeURIComponent(memberId)}/resend-confirmation`, okResponse, {
    method: 'POST',
    body: {},
  });

// The mail outbox (its imports kept with its calls).
import {
  consoleMailResponse,
  consoleMailRetryResponse,
  consoleNotificationMailResponse,
  type MailFilter,
  type NotificationMailFilter,
} from '@crw/core/console';

export const mailQuery = (status: MailFilter) =>
  infiniteQueryOptions({
    queryKey: ['console', 'mail', status],
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams({ status });
      if (pageParam) params.set('before', String(pageParam));
      return apiFetch(`/api/console/mail?${params.toString()}`, consoleMailResponse);
    },
    initialPageParam: 0,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
    placeholderData: (previous) => previous,
  });

/** The notification mails (credits, rounds), apart from the outbox's account mails. */
export const notificationMailQuery = (status: NotificationMailFilter) =>
  infiniteQueryOptions({
    queryKey: ['console', 'mail', 'notifications', status],
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams({ status });
      if (pageParam) params.set('before', String(pageParam));
      return apiFetch(
        `/api/console/mail/notifications?${params.toString()}`,
        consoleNotificationMailResponse,
      );
    },
    initialPageParam: 0,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
    placeholderData: (previous) => previous,
  });

/** Makes a waiting mail due now: the outbox worker tries it at once. */
export const retryMail = (id: number) =>
  apiFetch(`/api/console/mail/${id}/retry`, consoleMailRetryResponse, {
    method: 'POST',
    body: {},
  });

export const dryRunPageQuery = (filter: DryRunFilter, q: string, page: number) =>
  queryOptions({
    queryKey: ['console', 'dry-run', filter, q, page],
    queryFn: () => {
      const params = new URLSearchParams({ filter, offset: String(page * DRY_RUN_PAGE) });
      if (q) params.set('q', q);
      return apiFetch(`/api/console/rounds/dry-run?${params.toString()}`, dryRunResponse);
    },
    staleTime: 20_000,
  });

/** The guardian's view: alerts about the distributor (issue 28), looked at again every 30 s. */
export const roundAlertsQuery = queryOptions({
  queryKey: ['console', 'rounds', 'alerts'],
  queryFn: () => apiFetch('/api/console/rounds/alerts', roundAlertsResponse),
  refetchInterval: 30_000,
});

export const roundHistoryQuery = queryOptions({
  queryKey: ['console', 'rounds'],
  queryFn: () => apiFetch('/api/console/rounds', roundHistoryResponse),
});

/** Has the server work the dry run out again now (it keeps one for 30 s otherwise). */
export const refreshDryRun = () =>
  apiFetch('/api/console/rounds/dry-run/refresh', dryRunRefreshResponse, {
    method: 'POST',
    body: {},
  });

export const publishRound = () =>
  apiFetch('/api/console/rounds/publish', publishStartedResponse, { method: 'POST', body: {} });

// The review queue of held rewards (its imports kept with its calls).
import {
  reviewDecisionResponse,
  reviewQueueResponse,
  type ReviewDecision,
} from '@crw/core/console';

export const reviewQueueQuery = queryOptions({
  queryKey: ['console', 'review'],
  queryFn: () => apiFetch('/api/console/review', reviewQueueResponse),
});

/** Releases or voids the held rewards of joinings, a network's or a referrer's. */
export const decideHeldRewards = (decision: ReviewDecision) =>
  apiFetch('/api/console/review/decide', reviewDecisionResponse, {
    method: 'POST',
    body: decision,
  });
