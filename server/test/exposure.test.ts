// What a stranger can reach (docs/security.md): only the auth endpoints the product uses, no
// transport internals in the public health answer, and no cookie-carrying state change from
// another origin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  joinAndConfirm,
  makeMemberKeys,
  ORIGIN,
  signedInCookie,
  walletProof,
  type MemberKeys,
} from './helpers/members';
import { freePort } from './helpers/smtp-peer';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

let t: TestApp;
let member: MemberKeys;
let cookie: string;

beforeAll(async () => {
  // Mail goes to an SMTP port where nothing listens, so delivery fails with the transport's error.
  t = await buildTestApp({
    chain: false,
    env: { PUBLIC_URL: ORIGIN, SMTP_URL: `smtp://mailer:s3cret@127.0.0.1:${await freePort()}` },
    outbox: { pollIntervalMs: 50, retryBaseMs: 50 },
  });
  t.services.worker.start();
  member = await makeMemberKeys();
  await joinAndConfirm(t.app, t.services.database.db, member);
  cookie = await signedInCookie(t.app, member);
}, 60_000);
afterAll(() => t?.close());

describe(`better-auth's endpoints the product does not use are closed (${testDbKind})`, () => {
  it.each([
    ['GET', '/auth/list-sessions'],
    ['GET', '/auth/get-session'],
    ['POST', '/auth/change-password'],
    ['POST', '/auth/verify-password'],
    ['POST', '/auth/update-user'],
    ['POST', '/auth/delete-user'],
    ['POST', '/auth/revoke-sessions'],
    ['POST', '/auth/change-email'],
    ['POST', '/auth/sign-up/email'],
    ['GET', '/auth/token'],
  ] as const)('%s %s answers 404 even for a signed-in member', async (method, url) => {
    const res = await t.app.inject({
      method,
      url,
      headers: { cookie, origin: ORIGIN },
      ...(method === 'POST' ? { payload: {} } : {}),
    });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('token');
  });

  it('keeps the ones the product uses', async () => {
    const jwks = await t.app.inject({ method: 'GET', url: '/auth/.well-known/jwks.json' });
    expect(jwks.statusCode).toBe(200);
    const out = await t.app.inject({
      method: 'POST',
      url: '/auth/sign-out',
      headers: { cookie: await signedInCookie(t.app, member), origin: ORIGIN },
      payload: {},
    });
    expect(out.statusCode).toBe(200);
  });
});

describe(`the public health answer keeps the transport's details for the operator (${testDbKind})`, () => {
  it('says mail is failing, with the error text only for the operator key', async () => {
    await expect
      .poll(
        async () => (await t.app.inject({ method: 'GET', url: '/api/health' })).json().mail.status,
        { timeout: 20_000 },
      )
      .toBe('failing');
    const open = (await t.app.inject({ method: 'GET', url: '/api/health' })).json();
    expect(open.mail.lastError).toBeNull();
    expect(JSON.stringify(open)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|mailer/);
    const operator = (
      await t.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { authorization: `Bearer ${t.services.operatorKey}` },
      })
    ).json();
    expect(operator.mail.lastError).toMatch(/ECONNREFUSED|connect/i);
  });
});

describe(`state-changing /api calls check the Origin, as /auth does (${testDbKind})`, () => {
  const save = async (headers: Record<string, string>) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/wallet',
      headers,
      payload: {
        address: member.address,
        keystore: member.keystore,
        proof: await walletProof(t.app, member, 'save-wallet', cookie),
      },
    });

  it('refuses a cookie-carrying call with no Origin, or from another origin', async () => {
    const attempts: Array<Record<string, string>> = [
      { cookie },
      { cookie, origin: 'https://evil.example' },
      { cookie, origin: 'null' },
    ];
    for (const headers of attempts) {
      const res = await save(headers);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('forbidden');
    }
    const handoff = await t.app.inject({
      method: 'POST',
      url: '/api/handoff',
      headers: { cookie, origin: 'https://evil.example' },
    });
    expect(handoff.statusCode).toBe(403);
    expect(
      await t.services.database.db.selectFrom('handoff_codes').select('code_hash').execute(),
    ).toEqual([]);
  });

  it('judges the route, not the spelling of the URL: a percent-encoded /api path is checked and not cached', async () => {
    const forged = await t.app.inject({
      method: 'POST',
      url: '/%61pi/handoff',
      headers: { cookie, origin: 'https://evil.example', 'content-type': 'text/plain' },
      payload: 'x=1',
    });
    expect(forged.statusCode).toBe(403);
    const read = await t.app.inject({ method: 'GET', url: '/%61pi/me', headers: { cookie } });
    expect(read.statusCode).toBe(200);
    expect(read.headers['cache-control']).toBe('no-store');
  });

  it('accepts the same call from our own origin', async () => {
    expect((await save({ cookie, origin: ORIGIN })).statusCode).toBe(200);
  });
});
