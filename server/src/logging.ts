// The options of every logger the server makes (the boot logger and Fastify's). Request URLs can
// carry one-time secrets (confirmation and reset links, hand-off codes), and logs are kept longer
// and read by more people than the database: each request is logged with its secrets redacted.
import type { FastifyRequest } from 'fastify';
import type { BaseLogger, LoggerOptions } from 'pino';

/** The logger the layers below HTTP take: Fastify's and the boot logger both are one. */
export type Log = Pick<
  BaseLogger,
  'level' | 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'
>;

/** Query parameters that carry a secret: ours, better-auth's, and those of OAuth-style flows. */
const SECRET_PARAMS = new Set([
  'token',
  'authtoken',
  'code',
  'state',
  'otp',
  'secret',
  'password',
  'key',
  'apikey',
  'api_key',
  'access_token',
  'refresh_token',
  'id_token',
  'signature',
]);
/** better-auth's reset link carries its token as the path segment after /auth/reset-password/. */
const SECRET_PATH = /^(\/auth\/reset-password\/)[^/?#]+/i;
const REDACTED = '[redacted]';

function decoded(name: string): string {
  try {
    return decodeURIComponent(name).toLowerCase();
  } catch {
    return name.toLowerCase();
  }
}

/** The URL as it may be logged: secret query values and the reset token replaced by [redacted]. */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = (queryAt < 0 ? url : url.slice(0, queryAt)).replace(SECRET_PATH, `$1${REDACTED}`);
  if (queryAt < 0) return path;
  const pairs = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=', 1)[0] ?? '';
      return SECRET_PARAMS.has(decoded(name)) ? `${name}=${REDACTED}` : pair;
    });
  return `${path}?${pairs.join('&')}`;
}

export function logOptions(level: string): LoggerOptions {
  return {
    level,
    redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    serializers: {
      // Fastify's own request serializer, with the URL redacted.
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  };
}
