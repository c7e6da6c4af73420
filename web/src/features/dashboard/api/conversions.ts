import { conversionResponse, conversionsResponse } from '@crw/core';
import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** The member's conversions, newest first. */
export const conversionsQuery = queryOptions({
  queryKey: ['conversions'],
  queryFn: () => apiFetch('/api/conversions', conversionsResponse),
});

/** Converts `caps` care CAPs; the same `requestId` converts once however often it is sent. */
export const convertCaps = (caps: number, requestId: string) =>
  apiFetch('/api/conversions', conversionResponse, {
    method: 'POST',
    body: { caps, requestId },
  });
