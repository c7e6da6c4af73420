// Cross-site request forgery: a state-changing /api or /dev request that carries a cookie must come
// from one of our own origins, and one that names a foreign origin is refused outright — the rule
// better-auth applies to /auth, applied to the rest. Bearer-key callers send no cookie.
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../app-error';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function registerOriginCheck(app: FastifyInstance, trusted: string[]): void {
  const origins = new Set(trusted);
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    // The route's pattern, not the raw URL: /%61pi/… reaches the /api/… routes too.
    const route = request.routeOptions.url ?? '';
    if (!route.startsWith('/api/') && !route.startsWith('/dev/')) return;
    const origin = request.headers.origin;
    if (origin !== undefined ? !origins.has(origin) : request.headers.cookie !== undefined) {
      request.log.info({ origin: origin ?? null }, 'cross-origin request refused');
      throw new AppError(403, 'forbidden');
    }
  });
}
