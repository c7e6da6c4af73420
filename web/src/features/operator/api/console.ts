// The operator console's calls (/api/console): each answer parsed with core's schema.
import {
  auditResponse,
  careActionResponse,
  consoleMeResponse,
  memberDetailResponse,
  memberSearchResponse,
  okResponse,
  type MemberSort,
} from '@crw/core';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

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
