// Whether an error means the database is away (an outage answered with 503), not a bug of ours.
import type { Log } from '../../logging';
/** PostgreSQL unreachable or restarting (connection refused, dropped or timed out; its own codes
 * for shutdown and start-up): a temporary 503, not a failure of ours. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);
const UNAVAILABLE_TEXT =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is not open/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true;
    if (typeof e.message === 'string' && UNAVAILABLE_TEXT.test(e.message)) return true;
  }
  return false;
}

/** A background pass that failed: a warning while the database is away (the next pass tries
 * again, and requests meanwhile answer 503), an error for anything else. */
export function logPassFailure(log: Log, error: unknown, message: string): void {
  if (isDatabaseUnavailable(error)) log.warn({ err: error }, `${message}: database unavailable`);
  else log.error({ err: error }, message);
}
