import * as z from 'zod/mini';
import { errorCodes, type ErrorCode } from '../errors';

/** Every error response: { code, message } with a stable code. */
export const errorResponse = z.object({
  code: z.enum(errorCodes as [ErrorCode, ...ErrorCode[]]),
  message: z.string(),
});

/** Free text as PostgreSQL can store it: no NUL character (a text column refuses one, which would
 * otherwise fail the request with a 500), at most `max` characters, trimmed when asked. */
export const plainText = (max: number, opts: { trim?: boolean; min?: number } = {}) =>
  z.string().check(
    ...(opts.trim ? [z.trim()] : []),
    z.refine((s: string) => !s.includes('\u0000'), 'must not contain a NUL character'),
    z.minLength(opts.min ?? 0),
    z.maxLength(max),
  );

/** A positive PostgreSQL integer (int4), e.g. a round number in a URL. */
export const INT4_MAX = 2_147_483_647;
