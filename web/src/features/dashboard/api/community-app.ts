// POST /api/handoff: a one-time code for the sister community app, already in its URL.
import { handoffResponse } from '@crw/core';
import { apiFetch } from '../../../lib/api-client';

export const createHandoff = () =>
  apiFetch('/api/handoff', handoffResponse, { method: 'POST', body: {} });
