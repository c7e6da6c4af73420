import * as z from 'zod/mini';
import { errorCodes, type ErrorCode } from '../errors';

/** Every error response: { code, message } with a stable code. */
export const errorResponse = z.object({
  code: z.enum(errorCodes as [ErrorCode, ...ErrorCode[]]),
  message: z.string(),
});
