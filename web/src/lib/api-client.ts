// fetch for our API: JSON in, JSON out, { code, message } errors as ApiError, responses parsed
// with the shared zod schemas so the client never trusts a shape it did not check. An answer of
// the wrong shape is an ApiError with a plain message, never the schema's report: no screen may
// show a member a validation dump.
import { errorResponse } from '@crw/core';
import type * as z from 'zod/mini';

/** The code of an answer the app could not read (a proxy's page, a changed API, a truncated body). */
export const INVALID_RESPONSE = 'invalid_response';
export const INVALID_RESPONSE_MESSAGE =
  'The server sent an answer the app could not read. Please try again.';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** `fresh`: ask the server to read the database, not its copy (after it said the data changed). */
export async function apiFetch<S extends z.ZodMiniType>(
  path: string,
  schema: S,
  init: { method?: string; body?: unknown; fresh?: boolean; headers?: Record<string, string> } = {},
): Promise<z.infer<S>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method ?? 'GET',
      credentials: 'same-origin',
      headers: {
        accept: 'application/json',
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(init.fresh ? { 'cache-control': 'no-cache' } : {}),
        ...init.headers,
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
  } catch {
    throw new ApiError(
      0,
      'network_error',
      'Could not reach the server. Check your connection and try again.',
    );
  }
  const text = await response.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const body = errorResponse.safeParse(data);
    if (body.success) throw new ApiError(response.status, body.data.code, body.data.message);
    throw new ApiError(
      response.status,
      'http_error',
      `The server could not answer (${response.status}). Please try again.`,
    );
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success)
    throw new ApiError(response.status, INVALID_RESPONSE, INVALID_RESPONSE_MESSAGE);
  return parsed.data as z.infer<S>;
}
