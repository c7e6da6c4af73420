import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { makeMemberKeys, ORIGIN, registerBody, signIn } from './helpers/members';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    chain: false,
    env: { PUBLIC_URL: ORIGIN, REQUIRE_EMAIL_CONFIRMATION: 'false' },
  });
});
afterAll(() => t.close());

it('with REQUIRE_EMAIL_CONFIRMATION=false a new member can sign in at once and no confirmation mail is sent', async () => {
  const keys = await makeMemberKeys();
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/register',
    payload: await registerBody(t.app, keys),
  });
  expect(res.statusCode).toBe(201);
  expect(res.json().needsEmailConfirmation).toBe(false);
  expect((await signIn(t.app, keys.email, keys.authSecret)).statusCode).toBe(200);
  const mails = await t.services.database.db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('to_address', '=', keys.email)
    .execute();
  expect(mails).toEqual([]);
});
