// fetch for our API: JSON in, JSON out, { code, message } errors as ApiError, responses parsed
// with the shared zod schemas so the client never trusts a shape it did not check.
import type * as z from 'zod/mini';

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
export async function apiFetch<S extends z.ZodMiniType>(path: string, schema: S, init: { method?: string; body?: unknown; fresh?: boolean } = {}): Promise<z.infer<S>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method ?? 'GET',
      credentials: 'same-origin',
      headers: {
        accept: 'application/json',
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(init.fresh ? { 'cache-control': 'no-cache' } : {}),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
  } catch {
    throw new ApiError(0, 'network_error', 'Could not reach the server. Check your connection and try again.');
  }
  const text = await response.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const body = (data ?? {}) as { code?: string; message?: string };
    throw new ApiError(response.status, body.code ?? 'http_error', body.message ?? `The server answered ${response.status}.`);
  }
  return schema.parse(data);
}
