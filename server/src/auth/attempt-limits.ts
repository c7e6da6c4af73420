// Attempt limits for sign-in, sign-up, reset and resend: per IP and per e-mail, per endpoint.
// In-memory per process (rate-limiter-flexible); several processes would share a store instead.
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { AppError } from '../app-error';
import type { Config } from '../config';

function retryText(ms: number): string {
  const minutes = Math.ceil(ms / 60_000);
  if (ms < 60_000) return `${Math.max(1, Math.ceil(ms / 1000))} seconds`;
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

function emailOf(request: FastifyRequest): string {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : '';
}

export function attemptLimiter(config: Config): preHandlerAsyncHookHandler {
  const duration = config.AUTH_RATE_LIMIT_WINDOW_MINUTES * 60;
  const perIp = new RateLimiterMemory({ keyPrefix: 'ip', points: config.AUTH_RATE_LIMIT_PER_IP, duration });
  const perEmail = new RateLimiterMemory({ keyPrefix: 'email', points: config.AUTH_RATE_LIMIT_PER_EMAIL, duration });
  return async (request) => {
    const route = request.routeOptions.url ?? request.url;
    const email = emailOf(request);
    try {
      await perIp.consume(`${route}:${request.ip}`);
      if (email) await perEmail.consume(`${route}:${email}`);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      request.log.warn({ route, email: email || undefined }, 'attempt limit reached');
      throw new AppError(429, 'rate_limited', `Too many attempts. Please try again in ${retryText(rejection.msBeforeNext)}.`);
    }
  };
}
