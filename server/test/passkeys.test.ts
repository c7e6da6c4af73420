// Passkeys (decision 0026), on PGlite and PostgreSQL, with a software authenticator that signs as
// a phone does, so @simplewebauthn's real checks run: adding one after the password (with its
// security mail), signing in with one (no code asked of a member with two-factor on), the
// wrapped wallet key the server keeps and cannot open, and the attacks: an answer replayed, a
// challenge of another member's, a wrong origin or RP ID, no user verification, a cloned
// authenticator's counter, a removed passkey, another member's passkey, malformed and oversized
// bodies, and many attempts from one address.
import { deriveAuthSecret, openWalletSecret, newPrfSalt, sealWalletSecret } from '@crw/core';
import { sql } from 'kysely';
import { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SoftAuthenticator } from '../src/testing/soft-authenticator';
import {
  cookieOf,
  joinNamed,
  makeMemberKeys,
  ORIGIN,
  signIn,
  walletProof,
  type MemberKeys,
} from './helpers/members';
import { passkeyCalls } from './helpers/passkeys';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

/** The sign-in limit per address in this app: low enough to reach in the limits test. */
const PER_IP = 60;

let t: TestApp;
let base: MemberKeys;
const db = () => t.services.database.db;

beforeAll(async () => {
  t = await buildTestApp({
    chain: false,
    env: {
      PUBLIC_URL: ORIGIN,
      AUTH_RATE_LIMIT_PER_IP: String(PER_IP),
      AUTH_RATE_LIMIT_PER_EMAIL: '1000',
    },
  });
  base = await makeMemberKeys();
}, 60_000);
afterAll(() => t?.close());

let names = 0;
const newMember = () => joinNamed(t.app, db(), base, `Ada${++names}`);
const { call, registrationCeremony, addPasskey, signInCeremony, passkeySignIn, whoIs, listOf } =
  passkeyCalls(() => t.app);

describe(`passkeys: adding one (${testDbKind})`, () => {
  it('asks for the password, keeps the passkey with the device as its name, and tells the member by mail and in the activity', async () => {
    const m = await newMember();
    const noPassword = await call('POST', '/api/account/passkeys/options', {
      cookie: m.cookie,
      payload: {},
    });
    expect(noPassword.statusCode).toBe(400);
    const wrong = await call('POST', '/api/account/passkeys/options', {
      cookie: m.cookie,
      payload: { authSecret: 'f'.repeat(64) },
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().code).toBe('wrong_password');

    const ceremony = await registrationCeremony(m);
    const options = ceremony.options as {
      rp: { id: string };
      user: { name: string };
      authenticatorSelection: { residentKey: string; userVerification: string };
    };
    expect(options.rp.id).toBe('localhost');
    expect(options.user.name).toBe(m.keys.email);
    expect(options.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      userVerification: 'required',
    });
    const phone = new SoftAuthenticator(ORIGIN);
    const added = await call('POST', '/api/account/passkeys', {
      cookie: m.cookie,
      payload: {
        challengeId: ceremony.challengeId,
        response: phone.create(ceremony.options as never, { prf: true }),
      },
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({
      name: 'Chrome on Android',
      prf: true,
      unlocksWallet: false,
      lastUsedAt: null,
    });
    expect(await listOf(m.cookie)).toHaveLength(1);

    const events = await db()
      .selectFrom('security_events')
      .select(['kind', 'detail'])
      .where('user_id', '=', m.id)
      .execute();
    expect(events.filter((e) => e.kind === 'passkey_added')).toEqual([
      { kind: 'passkey_added', detail: expect.objectContaining({ device: 'Chrome on Android' }) },
    ]);
    const mails = await db()
      .selectFrom('mail_outbox')
      .select(['subject', 'text_body'])
      .where('to_address', '=', m.keys.email)
      .execute();
    expect(mails.map((mail) => mail.subject)).toContain('A passkey was added to your account');
    const activity = (await call('GET', '/api/activity', { cookie: m.cookie })).json() as {
      items: Array<{ kind: string; securityEvent?: string }>;
    };
    expect(activity.items.some((i) => i.securityEvent === 'passkey_added')).toBe(true);
  });

  it('refuses a registration replayed, answered to another member’s challenge, from another origin or without the device’s lock', async () => {
    const ada = await newMember();
    const eve = await newMember();
    const phone = new SoftAuthenticator(ORIGIN);

    // Replayed: the same answer twice; the challenge went with the first.
    const ceremony = await registrationCeremony(ada);
    const response = phone.create(ceremony.options as never);
    const body = { challengeId: ceremony.challengeId, response };
    expect(
      (await call('POST', '/api/account/passkeys', { cookie: ada.cookie, payload: body }))
        .statusCode,
    ).toBe(201);
    const again = await call('POST', '/api/account/passkeys', {
      cookie: ada.cookie,
      payload: body,
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('passkey_expired');

    // Eve answers Ada's challenge from her own session: it is not hers.
    const adas = await registrationCeremony(ada);
    const stolen = await call('POST', '/api/account/passkeys', {
      cookie: eve.cookie,
      payload: { challengeId: adas.challengeId, response: phone.create(adas.options as never) },
    });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().code).toBe('passkey_expired');

    // A page on another origin, an RP ID of another site, an authenticator without UV.
    for (const [authenticator, rpId] of [
      [new SoftAuthenticator('https://evil.example'), undefined],
      [new SoftAuthenticator(ORIGIN), 'evil.example'],
      [new SoftAuthenticator(ORIGIN, false), undefined],
    ] as const) {
      const c = await registrationCeremony(eve);
      const options = c.options as { challenge: string; user: { id: string }; rp: { id: string } };
      const res = await call('POST', '/api/account/passkeys', {
        cookie: eve.cookie,
        payload: {
          challengeId: c.challengeId,
          response: authenticator.create({
            ...options,
            rp: { id: rpId ?? options.rp.id },
          }),
        },
      });
      expect(res.statusCode, `${authenticator.origin} ${rpId}`).toBe(400);
      expect(res.json().code).toBe('passkey_failed');
    }
    expect(await listOf(eve.cookie)).toEqual([]);
    // Without a session nothing is asked or added.
    expect(
      (
        await call('POST', '/api/account/passkeys/options', {
          payload: { authSecret: ada.keys.authSecret },
        })
      ).statusCode,
    ).toBe(401);
    expect((await call('GET', '/api/account/passkeys')).statusCode).toBe(401);
  });

  it('refuses malformed and oversized answers with 400, and keeps at most ten passkeys', async () => {
    const m = await newMember();
    const c = await registrationCeremony(m);
    const good = new SoftAuthenticator(ORIGIN).create(c.options as never);
    for (const response of [
      { ...good, id: 'not base64url!' },
      { ...good, response: { ...good.response, attestationObject: 'A'.repeat(20_000) } },
      { ...good, type: 'password' },
      'a string',
    ]) {
      const res = await call('POST', '/api/account/passkeys', {
        cookie: m.cookie,
        payload: { challengeId: c.challengeId, response },
      });
      expect(res.statusCode).toBe(400);
    }
    const phone = new SoftAuthenticator(ORIGIN);
    for (let i = 0; i < 10; i++) await addPasskey(m, phone);
    const eleventh = await call('POST', '/api/account/passkeys/options', {
      cookie: m.cookie,
      payload: { authSecret: m.keys.authSecret },
    });
    expect(eleventh.statusCode).toBe(409);
  });
});

describe(`passkeys: signing in (${testDbKind})`, () => {
  it('signs the member in with no password and no code, even with two-factor on; the counter and last use move', async () => {
    const m = await newMember();
    // Two-factor on: a password sign-in would now ask for a code.
    const enabled = await call('POST', '/auth/two-factor/enable', {
      cookie: m.cookie,
      payload: { password: m.keys.authSecret },
    });
    expect(enabled.statusCode, enabled.body).toBe(200);
    const totp = new TOTP({
      secret: new URL(enabled.json().totpURI).searchParams.get('secret')!,
      digits: 6,
      period: 30,
    });
    const on = await call('POST', '/auth/two-factor/verify-totp', {
      cookie: m.cookie,
      payload: { code: totp.generate() },
    });
    expect(on.statusCode, on.body).toBe(200);
    const cookie = cookieOf(on.headers['set-cookie']) || m.cookie;
    expect((await signIn(t.app, m.keys.email, m.keys.authSecret)).json()).toMatchObject({
      twoFactorRedirect: true,
    });

    const phone = new SoftAuthenticator(ORIGIN);
    await addPasskey({ ...m, cookie }, phone);
    const c = await signInCeremony();
    expect(c.options).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    const res = await passkeySignIn({
      challengeId: c.challengeId,
      response: phone.get(c.options as never),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).not.toHaveProperty('twoFactorRedirect');
    const session = cookieOf(res.headers['set-cookie']);
    expect(session).toMatch(/session_token=[^;]/);
    expect(await whoIs(session)).toBe(m.keys.email);
    const [row] = await db()
      .selectFrom('passkeys')
      .select(['counter', 'last_used_at'])
      .where('user_id', '=', m.id)
      .execute();
    expect(Number(row!.counter)).toBe(1);
    expect(row!.last_used_at).not.toBeNull();
  });

  it('refuses an answer replayed, a wrong origin or RP ID, no user verification, a cloned authenticator and a removed passkey', async () => {
    const m = await newMember();
    const phone = new SoftAuthenticator(ORIGIN);
    const item = await addPasskey(m, phone);
    const refused = async (payload: unknown, code: string) => {
      const res = await passkeySignIn(payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe(code);
      expect(cookieOf(res.headers['set-cookie'])).not.toMatch(/session_token=[^;]/);
    };

    const c = await signInCeremony();
    const answer = { challengeId: c.challengeId, response: phone.get(c.options as never) };
    expect((await passkeySignIn(answer)).statusCode).toBe(200);
    await refused(answer, 'passkey_expired');

    // The same passkey answering from a page on another origin, or for another site's RP ID.
    const credential = phone.credentials[0]!;
    const elsewhere = new SoftAuthenticator('https://evil.example');
    const c2 = await signInCeremony();
    await refused(
      { challengeId: c2.challengeId, response: elsewhere.get(c2.options as never, credential) },
      'passkey_failed',
    );
    const c3 = await signInCeremony();
    await refused(
      {
        challengeId: c3.challengeId,
        response: phone.get(
          { ...(c3.options as { challenge: string }), rpId: 'evil.example' },
          credential,
        ),
      },
      'passkey_failed',
    );
    // No user verification: the device's lock was not checked.
    const unlocked = new SoftAuthenticator(ORIGIN, false);
    const c4 = await signInCeremony();
    await refused(
      { challengeId: c4.challengeId, response: unlocked.get(c4.options as never, credential) },
      'passkey_failed',
    );
    // A clone whose counter fell behind the one the server last saw.
    credential.counter = 0;
    const c5 = await signInCeremony();
    await refused(
      { challengeId: c5.challengeId, response: phone.get(c5.options as never) },
      'passkey_failed',
    );
    credential.counter = 100;

    // Removed (with the password): it signs in no more.
    const wrong = await call('DELETE', `/api/account/passkeys/${item.id}`, {
      cookie: m.cookie,
      payload: { authSecret: 'a'.repeat(64) },
    });
    expect(wrong.statusCode).toBe(403);
    const removed = await call('DELETE', `/api/account/passkeys/${item.id}`, {
      cookie: m.cookie,
      payload: { authSecret: m.keys.authSecret },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const c6 = await signInCeremony();
    await refused(
      { challengeId: c6.challengeId, response: phone.get(c6.options as never) },
      'passkey_failed',
    );
    // Malformed bodies never reach better-auth.
    for (const payload of [{}, { challengeId: c6.challengeId }, { challengeId: 'x', response: {} }])
      expect((await passkeySignIn(payload)).statusCode).toBe(400);
  });

  it('counts sign-in attempts per address: past the limit, 429 until the window passes', async () => {
    const address = '198.51.100.77';
    // Well-formed answers from a passkey this server never saw, each to a challenge it never gave.
    const stranger = new SoftAuthenticator(ORIGIN);
    stranger.create({ challenge: 'AAAA', rp: { id: 'localhost' }, user: { id: 'AAAA' } });
    let limited = 0;
    for (let i = 0; i < PER_IP + 5; i++) {
      const res = await passkeySignIn(
        {
          challengeId: crypto.randomUUID(),
          response: stranger.get({ challenge: 'AAAA', rpId: 'localhost' }),
        },
        { remoteAddress: address },
      );
      if (res.statusCode === 429) limited += 1;
      else expect(res.json().code).toBe('passkey_expired');
    }
    expect(limited).toBeGreaterThanOrEqual(5);
    // The options are limited as well, and another address is not held back.
    let optionsLimited = false;
    for (let i = 0; i < PER_IP + 1; i++)
      if (
        (await call('POST', '/api/passkeys/sign-in/options', { remoteAddress: address }))
          .statusCode === 429
      )
        optionsLimited = true;
    expect(optionsLimited).toBe(true);
    expect(
      (await call('POST', '/api/passkeys/sign-in/options', { remoteAddress: '198.51.100.78' }))
        .statusCode,
    ).toBe(200);
  });
});

describe(`passkeys: one member's are theirs alone (${testDbKind})`, () => {
  it('another member cannot rename, remove, list or give a wallet key to them', async () => {
    const ada = await newMember();
    const eve = await newMember();
    const item = await addPasskey(ada, new SoftAuthenticator(ORIGIN));
    const sealed = { prfSalt: newPrfSalt(), iv: 'A'.repeat(16), ciphertext: 'B'.repeat(80) };
    for (const [method, url, payload] of [
      ['PATCH', `/api/account/passkeys/${item.id}`, { name: 'Mine now' }],
      ['DELETE', `/api/account/passkeys/${item.id}`, { authSecret: eve.keys.authSecret }],
      ['PUT', `/api/account/passkeys/${item.id}/wallet-key`, sealed],
    ] as const) {
      const res = await call(method, url, { cookie: eve.cookie, payload });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(await listOf(eve.cookie)).toEqual([]);
    expect(
      (await call('GET', '/api/account/passkeys/wallet-keys', { cookie: eve.cookie })).json(),
    ).toEqual({ keys: [] });
    const [mine] = await listOf(ada.cookie);
    expect(mine).toMatchObject({ name: 'Chrome on Android', unlocksWallet: false });
    // The member renames their own; a name too long or empty is refused.
    expect(
      (
        await call('PATCH', `/api/account/passkeys/${item.id}`, {
          cookie: ada.cookie,
          payload: { name: '  Ada’s phone ' },
        })
      ).statusCode,
    ).toBe(200);
    expect((await listOf(ada.cookie))[0]!.name).toBe('Ada’s phone');
    for (const name of ['', 'x'.repeat(61)])
      expect(
        (
          await call('PATCH', `/api/account/passkeys/${item.id}`, {
            cookie: ada.cookie,
            payload: { name },
          })
        ).statusCode,
      ).toBe(400);
  });
});

describe(`passkeys: the wallet key stays the member's (${testDbKind})`, () => {
  it('keeps only what the browser sealed: nothing stored opens the wallet without the passkey, and deleting the account takes it all', async () => {
    const m = await newMember();
    const phone = new SoftAuthenticator(ORIGIN);
    const item = await addPasskey(m, phone, { prf: true });
    // The browser: the passkey's PRF output (it never leaves the device) seals the wallet's key.
    const prfOutput = crypto.getRandomValues(new Uint8Array(32));
    const prfSalt = newPrfSalt();
    const secret = { privateKey: m.keys.privateKey, phrase: null };
    const sealed = await sealWalletSecret(secret, prfOutput, prfSalt);
    const stored = await call('PUT', `/api/account/passkeys/${item.id}/wallet-key`, {
      cookie: m.cookie,
      payload: sealed,
    });
    expect(stored.statusCode, stored.body).toBe(200);
    expect((await listOf(m.cookie))[0]!.unlocksWallet).toBe(true);
    const { keys } = (
      await call('GET', '/api/account/passkeys/wallet-keys', { cookie: m.cookie })
    ).json() as { keys: Array<typeof sealed & { credentialId: string }> };
    expect(keys).toEqual([
      {
        ...sealed,
        passkeyId: item.id,
        credentialId: phone.credentials[0]!.id.toString('base64url'),
      },
    ]);
    // With the PRF output it opens; with any other, or moved under another salt, it does not.
    expect(await openWalletSecret(keys[0]!, prfOutput)).toEqual(secret);
    await expect(
      openWalletSecret(keys[0]!, crypto.getRandomValues(new Uint8Array(32))),
    ).rejects.toThrow();
    await expect(
      openWalletSecret({ ...keys[0]!, prfSalt: newPrfSalt() }, prfOutput),
    ).rejects.toThrow();

    // Every column the feature writes, read back: none holds the key, the PRF output, the
    // password or its auth secret, in any encoding.
    const c = await signInCeremony();
    expect(
      (await passkeySignIn({ challengeId: c.challengeId, response: phone.get(c.options as never) }))
        .statusCode,
    ).toBe(200);
    await registrationCeremony(m); // leaves a challenge row behind
    const rows = [
      ...(await sql`SELECT * FROM passkeys WHERE user_id = ${m.id}`.execute(db())).rows,
      ...(await sql`SELECT * FROM passkey_wallet_keys`.execute(db())).rows,
      ...(await sql`SELECT * FROM webauthn_challenges`.execute(db())).rows,
    ];
    const dump = JSON.stringify(rows, (_k, v: unknown) =>
      v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v,
    ).toLowerCase();
    const forbidden = [
      m.keys.privateKey.slice(2),
      Buffer.from(prfOutput).toString('hex'),
      Buffer.from(prfOutput).toString('base64url'),
      Buffer.from(prfOutput).toString('base64'),
      m.keys.authSecret,
      m.keys.password,
    ].map((s) => s.toLowerCase());
    for (const secretText of forbidden) expect(dump).not.toContain(secretText);

    // Malformed wrapped copies are refused.
    for (const bad of [
      { ...sealed, prfSalt: 'short' },
      { ...sealed, iv: 'A'.repeat(17) },
      { ...sealed, ciphertext: 'A'.repeat(2000) },
    ])
      expect(
        (
          await call('PUT', `/api/account/passkeys/${item.id}/wallet-key`, {
            cookie: m.cookie,
            payload: bad,
          })
        ).statusCode,
      ).toBe(400);

    const deleted = await call('DELETE', '/api/account', {
      cookie: m.cookie,
      payload: { authSecret: m.keys.authSecret },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const left = await sql<{ n: number }>`
      SELECT (SELECT count(*) FROM passkeys WHERE user_id = ${m.id})::int
           + (SELECT count(*) FROM passkey_wallet_keys WHERE passkey_id = ${item.id})::int
           + (SELECT count(*) FROM webauthn_challenges WHERE user_id = ${m.id})::int AS n`.execute(
      db(),
    );
    expect(left.rows[0]!.n).toBe(0);
  });

  it('the password change keeps the passkeys and their wrapped copies (they wrap the wallet key, not the password)', async () => {
    const m = await newMember();
    const item = await addPasskey(m, new SoftAuthenticator(ORIGIN), { prf: true });
    const sealed = await sealWalletSecret(
      { privateKey: m.keys.privateKey, phrase: null },
      crypto.getRandomValues(new Uint8Array(32)),
      newPrfSalt(),
    );
    await call('PUT', `/api/account/passkeys/${item.id}/wallet-key`, {
      cookie: m.cookie,
      payload: sealed,
    });
    const changed = await call('POST', '/api/account/password', {
      cookie: m.cookie,
      payload: {
        currentAuthSecret: m.keys.authSecret,
        newAuthSecret: await deriveAuthSecret('a brand new password', m.keys.email, 1000),
        wallet: {
          address: m.keys.address,
          keystore: JSON.stringify({
            ...(JSON.parse(m.keys.keystore) as object),
            id: crypto.randomUUID(),
          }),
          proof: await walletProof(t.app, m.keys, 'change-password', m.cookie),
        },
      },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const copies = await db()
      .selectFrom('passkey_wallet_keys')
      .select('ciphertext')
      .where('passkey_id', '=', item.id)
      .execute();
    expect(copies).toEqual([{ ciphertext: sealed.ciphertext }]);
  });
});
