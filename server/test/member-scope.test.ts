// Sign-in is checked once per route scope (http/guards/member-scope.ts): every member route of the API
// answers 401 to a stranger and to a forged cookie, and a handler outside the scope cannot read a
// member it was never given.
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decorateMember, memberRoutes } from '../src/http/guards/member-scope';
import type { SessionCheck } from '../src/infra/identity/session';
import { ORIGIN } from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ chain: false, env: { PUBLIC_URL: ORIGIN } });
});
afterAll(() => t.close());

interface Operation {
  security?: unknown[];
  responses?: Record<string, unknown>;
  requestBody?: unknown;
}

describe('member routes', () => {
  it('every route that answers a member refuses a stranger and a forged cookie with 401', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, Operation>>;
    };
    const memberOperations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, op]) => op.responses?.['401'] && !op.security)
        .map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
    );
    // The scope covers the account, settings, referrals, claims and hand-off features.
    expect(memberOperations.length).toBeGreaterThanOrEqual(15);
    for (const { path, method, op } of memberOperations) {
      // A route whose body is checked first answers 400 to an empty body; with no body to check,
      // the session is all that stands in the way.
      const url = path.replace(/\{[^}]+\}/g, 'x1');
      for (const cookie of [undefined, 'better-auth.session_token=forged.signature']) {
        const res = await t.app.inject({
          method: method as 'GET',
          url,
          headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
          ...(op.requestBody ? { payload: {} } : {}),
        });
        expect([401, ...(op.requestBody ? [400] : [])], `${method} ${path}`).toContain(
          res.statusCode,
        );
        if (!op.requestBody)
          expect(res.json(), `${method} ${path}`).toMatchObject({ code: 'unauthorized' });
      }
    }
  });

  it('a handler outside the scope cannot read request.member; inside it gets the checked session', async () => {
    const app = Fastify();
    decorateMember(app);
    const sessions = {
      requireCurrent: async () => ({ userId: 'u1', token: 't1', key: 'k1' }),
    } as unknown as SessionCheck;
    app.get('/outside', async (request) => request.member.userId);
    await app.register(
      memberRoutes(sessions, async (member) => {
        member.get('/inside', async (request) => request.member.userId);
      }),
    );
    expect((await app.inject({ url: '/inside' })).body).toBe('u1');
    expect((await app.inject({ url: '/outside' })).statusCode).toBe(500);
    await app.close();
  });
});
