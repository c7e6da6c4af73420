import { HANDOFF_CODE_TTL_S } from '@crw/core';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinAndConfirm, makeMemberKeys, signedInCookie, type MemberKeys } from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

const COMMUNITY_APP_URL = 'https://community.example.net/welcome';
let t: TestApp;
let member: MemberKeys;
let cookie: string;
let memberId: string;

async function newCode(): Promise<{ url: string; code: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/handoff',
    headers: { cookie, origin: t.services.config.publicUrl },
  });
  expect(res.statusCode, res.body).toBe(200);
  const { url, expiresInSeconds } = res.json() as { url: string; expiresInSeconds: number };
  expect(expiresInSeconds).toBe(HANDOFF_CODE_TTL_S);
  return { url, code: new URL(url).searchParams.get('authtoken')! };
}

const redeem = (code: string, secret: string | null = t.services.communityAppSecret) =>
  t.app.inject({
    method: 'POST',
    url: '/api/handoff/redeem',
    headers: secret === null ? {} : { authorization: `Bearer ${secret}` },
    payload: { code },
  });

async function jwks() {
  const res = await t.app.inject({ method: 'GET', url: '/auth/.well-known/jwks.json' });
  expect(res.statusCode, res.body).toBe(200);
  return createLocalJWKSet(res.json());
}

beforeAll(async () => {
  t = await buildTestApp({ chain: false, env: { COMMUNITY_APP_URL } });
  member = await makeMemberKeys();
  memberId = await joinAndConfirm(t.app, t.services.database.db, member);
  cookie = await signedInCookie(t.app, member);
}, 60_000);
afterAll(() => t?.close());

describe(`the sister app hand-off (${testDbKind})`, () => {
  it('gives a signed-in member a one-time code in the sister app URL, never the session', async () => {
    const { url, code } = await newCode();
    expect(url.startsWith(`${COMMUNITY_APP_URL}?authtoken=`)).toBe(true);
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const session = decodeURIComponent(cookie.split(';')[0]!.split('=')[1]!).split('.')[0]!;
    expect(url).not.toContain(session);
    const stored = await t.services.database.db
      .selectFrom('handoff_codes')
      .select('code_hash')
      .execute();
    expect(stored.map((r) => r.code_hash)).not.toContain(code); // only its hash is kept

    const anonymous = await t.app.inject({ method: 'POST', url: '/api/handoff' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('redeems a code once for a JWT that verifies with the published JWKS', async () => {
    const { code } = await newCode();
    const res = await redeem(code);
    expect(res.statusCode, res.body).toBe(200);
    const { token, tokenType } = res.json() as { token: string; tokenType: string };
    expect(tokenType).toBe('JWT');
    const { payload, protectedHeader } = await jwtVerify(token, await jwks(), {
      audience: new URL(COMMUNITY_APP_URL).origin,
      issuer: t.services.config.publicUrl,
    });
    expect(protectedHeader.kid).toBeTruthy();
    expect(payload).toMatchObject({ sub: memberId, email: member.email, wallet: member.address });
    expect(payload.exp! - payload.iat!).toBe(300);

    const replay = await redeem(code);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({
      code: 'invalid_handoff_code',
      message: 'This hand-off code is invalid, already used or expired.',
    });
  });

  it('refuses an expired code, an unknown code and a malformed one', async () => {
    const { code } = await newCode();
    // 61 s later, as far as the code is concerned.
    await sql`UPDATE handoff_codes SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`.execute(
      t.services.database.db,
    );
    expect((await redeem(code)).statusCode).toBe(401);
    expect((await redeem('A'.repeat(43))).statusCode).toBe(401);
    expect((await redeem('not a code')).statusCode).toBe(400);
  });

  it('redeems only for the sister app: no client secret or a wrong one is refused and leaves the code usable', async () => {
    const { code } = await newCode();
    for (const secret of [null, 'x'.repeat(43), `${t.services.communityAppSecret}x`]) {
      const res = await redeem(code, secret);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        code: 'invalid_client',
        message: 'The sister app must present its client secret.',
      });
    }
    expect((await redeem(code)).statusCode).toBe(200);
  });

  it('lets exactly one of two simultaneous redeemers win', async () => {
    const { code } = await newCode();
    const results = await Promise.all([redeem(code), redeem(code), redeem(code)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401, 401]);
  });

  it('does not hand a session JWT to the browser', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/auth/token', headers: { cookie } });
    expect(res.statusCode).toBe(404);
  });

  it('a token signed by another key does not verify', async () => {
    const { code } = await newCode();
    const { token } = (await redeem(code)).json() as { token: string };
    const [header, body] = token.split('.');
    const forged = `${header}.${body}.${Buffer.from('x'.repeat(64)).toString('base64url')}`;
    await expect(jwtVerify(forged, await jwks())).rejects.toThrow();
  });
});
