// Sign-in is checked once per route scope, not by each handler: routes registered through
// `memberRoutes` run a hook that resolves the session cookie (SessionCheck, cached) and
// answers 401 'User not authenticated' without one; their handlers read `request.member`.
// The check runs before the request's schema validation: a stranger learns nothing of a body's shape.
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CurrentSession, SessionCheck } from '../../infra/identity/session';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in member asking; readable only in routes registered through `memberRoutes`. */
    readonly member: CurrentSession;
    signedIn: CurrentSession | null;
  }
}

/** Once, on the root instance: the request's member slot and its guarded reader. */
export function decorateMember(app: FastifyInstance): void {
  app.decorateRequest('signedIn', null);
  app.decorateRequest('member', {
    getter() {
      if (!this.signedIn) throw new Error('request.member read outside memberRoutes');
      return this.signedIn;
    },
  });
}

/** `routes`, each answering only a signed-in member (401 otherwise). */
export function memberRoutes(
  sessions: SessionCheck,
  routes: FastifyPluginAsyncZod,
): FastifyPluginAsyncZod {
  return async (app, opts) => {
    app.addHook('preValidation', async (request) => {
      request.signedIn = await sessions.requireCurrent(request);
    });
    await routes(app, opts);
  };
}
