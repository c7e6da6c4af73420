// The account page lists where the member is signed in: each session records the address this
// server trusts (the socket's, or what TRUST_PROXY's proxies forwarded), never an address the
// client wrote into X-Forwarded-For itself (docs/security.md#limits-proxies-files-logs).
import { afterEach, describe, expect, it } from 'vitest';
import { cookieOf, makeMemberKeys, ORIGIN, registerBody, type MemberKeys } from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

const CLIENT = '198.51.100.7';
const FORGED = '203.0.113.9';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Registers the member and opens the mailed confirmation link from CLIENT with a forged header;
 * the link signs the member in. */
async function joinFrom(app: TestApp, keys: MemberKeys): Promise<string> {
  const registered = await app.app.inject({
    method: 'POST',
    url: '/api/register',
    payload: await registerBody(app.app, keys),
  });
  expect(registered.statusCode, registered.body).toBe(201);
  const { text_body: text } = await app.services.database.db
    .selectFrom('mail_outbox')
    .select('text_body')
    .where('to_address', '=', keys.email)
    .executeTakeFirstOrThrow();
  const link = new URL(/https?:\/\/\S+\/auth\/verify-email\S*/.exec(text)![0]);
  const confirmed = await app.app.inject({
    method: 'GET',
    url: `${link.pathname}${link.search}`,
    remoteAddress: CLIENT,
    headers: { 'x-forwarded-for': FORGED },
  });
  expect(confirmed.statusCode).toBe(302);
  return cookieOf(confirmed.headers['set-cookie']);
}

async function signInFrom(app: TestApp, keys: MemberKeys): Promise<string> {
  const res = await app.app.inject({
    method: 'POST',
    url: '/auth/sign-in/email',
    remoteAddress: CLIENT,
    headers: { origin: ORIGIN, 'x-forwarded-for': FORGED },
    payload: { email: keys.email, password: keys.authSecret },
  });
  expect(res.statusCode, res.body).toBe(200);
  return cookieOf(res.headers['set-cookie']);
}

async function listedAddresses(app: TestApp, cookie: string): Promise<string[]> {
  const res = await app.app.inject({
    method: 'GET',
    url: '/api/account/security',
    headers: { cookie },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { sessions: { ipAddress: string | null }[] }).sessions.map(
    (s) => s.ipAddress ?? '',
  );
}

describe(`the address the session list shows (${testDbKind})`, () => {
  it('with TRUST_PROXY=false: the socket’s address, whatever X-Forwarded-For says', async () => {
    t = await buildTestApp({ chain: false });
    const keys = await makeMemberKeys();
    await joinFrom(t, keys);
    const cookie = await signInFrom(t, keys);
    expect(await listedAddresses(t, cookie)).toEqual([CLIENT, CLIENT]);
  });

  it('with TRUST_PROXY=1: the address the proxy forwarded', async () => {
    t = await buildTestApp({ chain: false, env: { TRUST_PROXY: '1' } });
    const keys = await makeMemberKeys();
    await joinFrom(t, keys);
    const cookie = await signInFrom(t, keys);
    expect(await listedAddresses(t, cookie)).toEqual([FORGED, FORGED]);
  });
});
