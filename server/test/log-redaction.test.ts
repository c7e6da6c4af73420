// Logs are read by more people, and kept longer, than the database: no secret may reach them. A
// member's whole journey (sign-up, confirmation, sign-in, password reset, hand-off, claim), logged
// at the most verbose level, then every secret it involved is looked for in every log line.
import type { ClaimData } from '@crw/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendClaim } from './helpers/chain-client';
import {
  cookieOf,
  joinAndConfirm,
  makeMemberKeys,
  ORIGIN,
  signIn,
  signedInCookie,
  type MemberKeys,
} from './helpers/members';
import { passGate } from '../src/testing/signup-gate';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

let t: TestApp;
let member: MemberKeys;
const secrets = new Map<string, string>();

const json = async <T>(
  res: { statusCode: number; body: string; json: () => unknown },
  status = 200,
): Promise<T> => {
  expect(res.statusCode, res.body).toBe(status);
  return res.json() as T;
};
const lastMail = async (subject: string) =>
  (
    await t.services.database.db
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('to_address', '=', member.email)
      .where('subject', '=', subject)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
  ).text_body;
const linkIn = (text: string, path: string) =>
  new URL(new RegExp(`https?://\\S+${path}\\S*`).exec(text)![0]);
const sessionOf = (cookie: string) =>
  decodeURIComponent(/crw\.session_token=([^;]+)/.exec(cookie)![1]!);

beforeAll(async () => {
  t = await buildTestApp({ env: { LOG_LEVEL: 'trace', PUBLIC_URL: ORIGIN } });
  member = await makeMemberKeys();
  const db = t.services.database.db;
  const operator = { authorization: `Bearer ${t.services.operatorKey}` };

  await joinAndConfirm(t.app, db, member);
  secrets.set(
    'confirmation token',
    linkIn(await lastMail('Confirm your e-mail address'), '/auth/verify-email').searchParams.get(
      'token',
    )!,
  );
  const cookie = await signedInCookie(t.app, member);
  secrets.set('session', sessionOf(cookie));

  await json(
    await t.app.inject({
      method: 'POST',
      url: '/auth/request-password-reset',
      headers: { origin: ORIGIN },
      payload: {
        email: member.email,
        redirectTo: '/reset-password',
        gate: await passGate(t.app, 'reset'),
      },
    }),
  );
  const resetLink = linkIn(await lastMail('Reset your password'), '/auth/reset-password/');
  const landing = await t.app.inject({
    method: 'GET',
    url: `${resetLink.pathname}${resetLink.search}`,
  });
  const resetPage = new URL(String(landing.headers.location), ORIGIN);
  await t.app.inject({
    method: 'GET',
    url: `${resetPage.pathname}${resetPage.search}`,
    headers: { accept: 'text/html' },
  }); // the browser opens it
  const token = resetPage.searchParams.get('token')!;
  secrets.set('reset token', token);
  const newSecret = 'e'.repeat(64);
  secrets.set('new auth secret', newSecret);
  await json(
    await t.app.inject({
      method: 'POST',
      url: '/auth/reset-password',
      headers: { origin: ORIGIN },
      payload: { token, newPassword: newSecret },
    }),
  );
  const renewed = cookieOf((await signIn(t.app, member.email, newSecret)).headers['set-cookie']);
  secrets.set('session after reset', sessionOf(renewed));

  const { url } = await json<{ url: string }>(
    await t.app.inject({
      method: 'POST',
      url: '/api/handoff',
      headers: { cookie: renewed, origin: ORIGIN },
    }),
  );
  const code = new URL(url).searchParams.get('authtoken')!;
  secrets.set('hand-off code', code);
  const sisterApp = { authorization: `Bearer ${t.services.communityAppSecret}` };
  secrets.set(
    'hand-off JWT',
    (
      await json<{ token: string }>(
        await t.app.inject({
          method: 'POST',
          url: '/api/handoff/redeem',
          headers: sisterApp,
          payload: { code },
        }),
      )
    ).token,
  );
  secrets.set('COMMUNITY_APP_CLIENT_SECRET', t.services.communityAppSecret);

  await json(
    await t.app.inject({ method: 'POST', url: '/api/operator/distributions', headers: operator }),
  );
  await json(
    await t.app.inject({
      method: 'POST',
      url: '/api/operator/fund',
      headers: operator,
      payload: { address: member.address, eth: '0.05' },
    }),
  );
  const claim = await json<ClaimData>(
    await t.app.inject({ method: 'GET', url: '/api/claim', headers: { cookie: renewed } }),
  );
  const distributor = t.services.chain.distributor.target as string;
  const sent = await sendClaim(t.app, member.privateKey, distributor, [
    member.address,
    BigInt(claim.distributedTokens),
    claim.proof,
    claim.distributionIndex,
  ]);
  expect(sent.receipt?.status).toBe('0x1');

  secrets.set('AUTH_SECRET', t.services.signingKey);
  secrets.set('operator key', t.services.operatorKey);
  secrets.set('auth secret', member.authSecret);
  secrets.set('keystore', member.keystore);
  secrets.set(
    'keystore ciphertext',
    (JSON.parse(member.keystore) as { Crypto: { ciphertext: string } }).Crypto.ciphertext,
  );
  secrets.set('private key', member.privateKey.slice(2));
}, 120_000);
afterAll(() => t?.close());

describe(`the logs of a member's whole journey (${testDbKind})`, () => {
  it('show each request, its secrets redacted', () => {
    const urls = t.logs.map((l) => (l.req as { url?: string } | undefined)?.url).filter(Boolean);
    expect(urls).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/auth\/verify-email\?token=\[redacted\]&/),
        expect.stringMatching(/^\/auth\/reset-password\/\[redacted\]\?callbackURL=/),
        '/reset-password?token=[redacted]',
      ]),
    );
  });

  it('hold none of the secrets involved', () => {
    expect(secrets.size).toBe(14);
    for (const [name, secret] of secrets) {
      const forms = [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)];
      const leaks = t.logs
        .map((l) => JSON.stringify(l))
        .filter((line) => forms.some((form) => line.includes(form)));
      expect(leaks, name).toEqual([]);
    }
  });
});
