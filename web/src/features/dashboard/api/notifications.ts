import { okResponse } from '@crw/core';
import { apiFetch } from '../../../lib/api-client';

/** The member saw their activity up to `upTo` (the newest line shown in the notification centre). */
export const markActivitySeen = (upTo: string) =>
  apiFetch('/api/activity/seen', okResponse, { method: 'POST', body: { upTo } });
