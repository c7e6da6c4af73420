import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/test-app';
import {
  cloneMemberKeys,
  cookieOf,
  joinAndConfirm,
  makeMemberKeys,
  ORIGIN,
  registerBody,
  signedInCookie,
  signIn,
  uniqueEmail,
  walletProof,
  type MemberKeys,
} from './helpers/members';
import { passGate } from '../src/testing/signup-gate';

let t: TestApp;
let ada: MemberKeys;
let spare: MemberKeys;

const linkIn = (text: string, path: string) => {
  const match = new RegExp(`https?://[^\\s]+${path.replace(/\//g, '\\/')}[^\\s]*`).exec(text);
  if (!match) throw new Error(`no ${path} link in: ${text}`);
  return new URL(match[0]);
};
const lastMailTo = async (to: string) =>
  t.services.database.db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('to_address', '=', to)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
const count = async (table: string, column: string, value: string) =>
  Number(
    (
      await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM ${sql.table(table)} WHERE ${sql.ref(column)} = ${value}`.execute(
        t.services.database.db,
      )
    ).rows[0]?.n,
  );

beforeAll(async () => {
  t = await buildTestApp({ chain: false, env: { PUBLIC_URL: ORIGIN } });
  [ada, spare] = await Promise.all([makeMemberKeys(), makeMemberKeys()]);
});
afterAll(() => t.close());

describe('sign-up, confirmation and sign-in', () => {
  let cookie = '';

  it('creates the account, profile, wallet, distributions row and confirmation mail together', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: await registerBody(t.app, ada),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ needsEmailConfirmation: true });
    const userId = res.json().userId as string;
    const profile = await t.services.database.db
      .selectFrom('profiles')
      .selectAll()
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(profile).toMatchObject({
      email: ada.email,
      username: ada.email.split('@')[0],
      full_name: 'Ada Lovelace',
    });
    const wallet = await t.services.database.db
      .selectFrom('user_wallets')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(wallet.wallet_address).toBe(ada.address.toLowerCase()); // one canonical form
    expect(wallet.encrypted_wallet).toBe(ada.keystore);
    expect(await count('user_token_distributions', 'user_id', userId)).toBe(1);
    const mail = await lastMailTo(ada.email);
    expect(mail.subject).toBe('Confirm your e-mail address');
    const link = linkIn(mail.text_body, '/auth/verify-email');
    expect(link.searchParams.get('callbackURL')).toBe('/?confirmed=true');
  });

  it('stores only the hash of the auth secret, never the secret', async () => {
    const account = await sql<{
      password: string;
    }>`SELECT password FROM account a JOIN "user" u ON u.id = a."userId" WHERE u.email = ${ada.email}`.execute(
      t.services.database.db,
    );
    expect(account.rows[0]?.password).toMatch(/^scrypt\$16384\$8\$5\$/);
    expect(account.rows[0]?.password).not.toContain(ada.authSecret);
  });

  it('refuses sign-in before the e-mail is confirmed', async () => {
    const res = await signIn(t.app, ada.email, ada.authSecret);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      code: 'email_not_confirmed',
      message: 'Please check your email and click the confirmation link before signing in.',
    });
  });

  it('the mailed link confirms the address, signs the member in and lands on /?confirmed=true', async () => {
    const link = linkIn((await lastMailTo(ada.email)).text_body, '/auth/verify-email');
    const res = await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/?confirmed=true');
    cookie = cookieOf(res.headers['set-cookie']);
    expect(cookie).toContain('crw.session_token=');
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      email: ada.email,
      fullName: 'Ada Lovelace',
      wallet: { address: ada.address, keystore: ada.keystore },
    });
  });

  it('signs in with the auth secret and refuses a wrong one with "Invalid email or password…"', async () => {
    const ok = await signIn(t.app, ada.email.toUpperCase(), ada.authSecret);
    expect(ok.statusCode).toBe(200);
    expect(cookieOf(ok.headers['set-cookie'])).toContain('crw.session_token=');
    const wrong = await signIn(t.app, ada.email, 'f'.repeat(64));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({
      code: 'invalid_credentials',
      message: 'Invalid email or password. Please check your credentials.',
    });
  });

  it('GET /api/me without a session answers 401 User not authenticated', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/me' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'unauthorized', message: 'User not authenticated' });
  });

  it('saveNewWallet accepts the same address re-encrypted and refuses another address', async () => {
    const same = await t.app.inject({
      method: 'PUT',
      url: '/api/wallet',
      headers: { cookie, origin: ORIGIN },
      payload: {
        address: ada.address,
        keystore: ada.keystore,
        proof: await walletProof(t.app, ada, 'save-wallet', cookie),
      },
    });
    expect(same.statusCode).toBe(200);
    const other = await t.app.inject({
      method: 'PUT',
      url: '/api/wallet',
      headers: { cookie, origin: ORIGIN },
      payload: {
        address: spare.address,
        keystore: spare.keystore,
        proof: await walletProof(t.app, spare, 'save-wallet', cookie),
      },
    });
    expect(other.statusCode).toBe(409);
    expect(other.json().code).toBe('wallet_mismatch');
  });

  it('sign-out ends the server session', async () => {
    const out = await t.app.inject({
      method: 'POST',
      url: '/auth/sign-out',
      headers: { cookie, origin: ORIGIN },
      payload: {},
    });
    expect(out.statusCode).toBe(200);
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect(me.statusCode).toBe(401);
  });
});

describe('sign-up refusals change nothing', () => {
  it('an existing e-mail → 409 with the service\'s message, "…Please sign in instead."', async () => {
    const before = await count('user_wallets', 'wallet_address', spare.address.toLowerCase());
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: await registerBody(t.app, { ...spare, email: ada.email }),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'email_taken',
      message: 'An account with this email already exists. Please sign in instead.',
    });
    expect(await count('user_wallets', 'wallet_address', spare.address.toLowerCase())).toBe(before);
  });

  it('a keystore that is not scrypt N=131072 → 400 Invalid Wallet', async () => {
    const weak = JSON.parse(spare.keystore) as { Crypto: { kdfparams: { n: number } } };
    weak.Crypto.kdfparams.n = 1024;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: await registerBody(t.app, { ...spare, keystore: JSON.stringify(weak) }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'invalid_keystore', message: 'Invalid Wallet' });
  });

  it('a password instead of a derived secret → 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: await registerBody(t.app, { ...spare, authSecret: 'my password' }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_request');
  });

  it('a failure half-way through leaves no account, profile, wallet or mail', async () => {
    const db = t.services.database.db;
    await sql`CREATE FUNCTION fail_distribution() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'forced failure'; END $$`.execute(
      db,
    );
    await sql`CREATE TRIGGER fail_distribution BEFORE INSERT ON user_token_distributions FOR EACH ROW EXECUTE FUNCTION fail_distribution()`.execute(
      db,
    );
    try {
      const email = uniqueEmail('halfway');
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: await registerBody(t.app, { ...spare, email }),
      });
      expect(res.statusCode).toBe(500);
      expect(await count('user', 'email', email)).toBe(0);
      expect(await count('profiles', 'email', email)).toBe(0);
      expect(await count('user_wallets', 'wallet_address', spare.address.toLowerCase())).toBe(0);
      expect(await count('mail_outbox', 'to_address', email)).toBe(0);
    } finally {
      await sql`DROP TRIGGER fail_distribution ON user_token_distributions`.execute(db);
    }
    expect(
      t.logs.some(
        (l) => l.msg === 'request failed' && JSON.stringify(l).includes('forced failure'),
      ),
    ).toBe(true);
  });
});

describe('password reset', () => {
  it('answers the same for a known and an unknown e-mail, and mails a single-use link valid for 1 hour, stored only hashed', async () => {
    const ask = async (email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/auth/request-password-reset',
        headers: { origin: ORIGIN },
        payload: { email, redirectTo: '/reset-password', gate: await passGate(t.app, 'reset') },
      });
    const known = await ask(ada.email);
    const unknown = await ask('nobody@example.test');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    expect(await count('mail_outbox', 'to_address', 'nobody@example.test')).toBe(0);

    const mail = await lastMailTo(ada.email);
    expect(mail.subject).toBe('Reset your password');
    const link = linkIn(mail.text_body, '/auth/reset-password/');
    const landing = await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(landing.statusCode).toBe(302);
    const target = new URL(String(landing.headers.location), ORIGIN);
    expect(target.pathname).toBe('/reset-password');
    const token = target.searchParams.get('token')!;
    expect(link.pathname).toContain(token);
    // Only a hash of the token is stored: a copy of the database (or its files) resets nothing.
    const holding = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM verification WHERE strpos(identifier || value, ${token}) > 0`.execute(
      t.services.database.db,
    );
    expect(holding.rows[0]?.n).toBe(0);
    const stored = createHash('sha256').update(`reset-password:${token}`).digest('base64url');
    const expiry = await sql<{
      s: number;
    }>`SELECT extract(epoch FROM "expiresAt" - now())::int AS s FROM verification WHERE identifier = ${stored}`.execute(
      t.services.database.db,
    );
    expect(expiry.rows[0]?.s).toBeGreaterThan(3500);
    expect(expiry.rows[0]?.s).toBeLessThanOrEqual(3600);

    const newSecret = 'a'.repeat(64);
    const reset = () =>
      t.app.inject({
        method: 'POST',
        url: '/auth/reset-password',
        headers: { origin: ORIGIN },
        payload: { token, newPassword: newSecret },
      });
    expect((await reset()).statusCode).toBe(200);
    const again = await reset();
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('invalid_token');
    expect((await signIn(t.app, ada.email, newSecret)).statusCode).toBe(200);
    expect((await signIn(t.app, ada.email, ada.authSecret)).statusCode).toBe(401);
  });

  it('leaves the wallet marked as locked by the old password until a re-locked keystore is saved', async () => {
    const bea = await cloneMemberKeys(ada);
    await joinAndConfirm(t.app, t.services.database.db, bea);
    const locked = async (cookie: string) =>
      (await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })).json().wallet
        .lockedByOldPassword as boolean;
    expect(await locked(await signedInCookie(t.app, bea))).toBe(false);
    await t.app.inject({
      method: 'POST',
      url: '/auth/request-password-reset',
      headers: { origin: ORIGIN },
      payload: {
        email: bea.email,
        redirectTo: '/reset-password',
        gate: await passGate(t.app, 'reset'),
      },
    });
    const landing = await t.app.inject({
      method: 'GET',
      url: (({ pathname, search }) => `${pathname}${search}`)(
        linkIn((await lastMailTo(bea.email)).text_body, '/auth/reset-password/'),
      ),
    });
    const token = new URL(String(landing.headers.location), ORIGIN).searchParams.get('token')!;
    const newSecret = 'b'.repeat(64);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/auth/reset-password',
          headers: { origin: ORIGIN },
          payload: { token, newPassword: newSecret },
        })
      ).statusCode,
    ).toBe(200);
    const cookie = cookieOf((await signIn(t.app, bea.email, newSecret)).headers['set-cookie']);
    expect(await locked(cookie)).toBe(true);
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/wallet',
      headers: { cookie, origin: ORIGIN },
      payload: {
        address: bea.address,
        keystore: bea.keystore,
        proof: await walletProof(t.app, bea, 'save-wallet', cookie),
      },
    });
    expect(saved.statusCode).toBe(200);
    expect(await locked(cookie)).toBe(false);
  });

  it('resend confirmation answers the same whether or not the account exists', async () => {
    const ask = async (email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/auth/send-verification-email',
        headers: { origin: ORIGIN },
        payload: { email, callbackURL: '/?confirmed=true', gate: await passGate(t.app, 'resend') },
      });
    const known = await ask(ada.email);
    const unknown = await ask('nobody2@example.test');
    expect(known.statusCode).toBe(unknown.statusCode);
    expect(known.body).toBe(unknown.body);
  });
});

describe('limits and the test-only deletion', () => {
  it('limits sign-in per e-mail: the attempt after the limit answers 429 with a clear message', async () => {
    const email = uniqueEmail('limited');
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await signIn(t.app, email, 'b'.repeat(64))).statusCode);
    expect(codes).toEqual([401, 401, 401, 401, 401, 429]);
    const blocked = await signIn(t.app, email, 'b'.repeat(64));
    expect(blocked.json()).toEqual({
      code: 'rate_limited',
      message: 'Too many attempts. Please try again in 10 minutes.',
    });
  });

  it('delete_current_user() removes the signed-in member and everything of theirs', async () => {
    const keys = await makeMemberKeys();
    const reg = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: await registerBody(t.app, keys),
    });
    const userId = reg.json().userId as string;
    const link = linkIn((await lastMailTo(keys.email)).text_body, '/auth/verify-email');
    const confirmed = await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    const cookie = cookieOf(confirmed.headers['set-cookie']);
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/dev/account',
      headers: { cookie, origin: ORIGIN },
    });
    expect(res.json()).toEqual({ success: true, message: 'Account deleted' });
    for (const [table, column] of [
      ['user', 'id'],
      ['profiles', 'id'],
      ['user_wallets', 'user_id'],
      ['user_token_distributions', 'user_id'],
    ] as const) {
      expect(await count(table, column, userId), table).toBe(0);
    }
  });
});
