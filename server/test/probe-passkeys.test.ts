// Security probes for passkeys (issue 31, decision 0026): what a stranger, a thief of one member's
// session or a second member would try. Each test asserts the SAFE outcome, so a pass means the
// attack failed; the few marked "informational" record behaviour that is allowed by design.
import { deriveAuthSecret, newPrfSalt, type PasskeyItem } from '@crw/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config';
import { passkeyParty } from '../src/domain/members/passkeys';
import { trustedOrigins } from '../src/infra/identity/auth';
import { SoftAuthenticator } from '../src/testing/soft-authenticator';
import {
  cookieOf,
  joinNamed,
  makeMemberKeys,
  ORIGIN,
  registerBody,
  uniqueEmail,
  walletProof,
  cloneMemberKeys,
  type MemberKeys,
} from './helpers/members';
import { hasSession, passkeyCalls, sessionOf } from './helpers/passkeys';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

/** Per-address limit: high enough for the set-up traffic of every member here from 127.0.0.1. */
const PER_IP = 150;
const EVIL = 'https://evil.example';

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
const newMember = () => joinNamed(t.app, db(), base, `Probe${++names}`);
const { call, registrationCeremony, addPasskey, signInCeremony, passkeySignIn, whoIs, listOf } =
  passkeyCalls(() => t.app);

let addressCounter = 0;
/** A fresh client address, so one probe's attempts do not count against another's. */
const freshAddress = () => `203.0.113.${++addressCounter}`;

describe(`probe: a challenge answers only its own ceremony (${testDbKind})`, () => {
  it('a registration challenge cannot be spent on a sign-in, and a sign-in challenge cannot add a passkey', async () => {
    const ada = await newMember();
    const phone = new SoftAuthenticator(ORIGIN);
    await addPasskey(ada, phone);

    // Purpose confusion 1: Ada's own registration challenge, signed by her passkey, sent to sign-in.
    const reg = await registrationCeremony(ada);
    const regOptions = reg.options as { challenge: string };
    const confused = await passkeySignIn({
      challengeId: reg.challengeId,
      response: phone.get({ challenge: regOptions.challenge, rpId: 'localhost' }),
    });
    expect(confused.statusCode, confused.body).toBe(400);
    expect(confused.json().code).toBe('passkey_expired');
    expect(hasSession(confused)).toBe(false);

    // Purpose confusion 2: a sign-in challenge (bound to nobody) used to add a passkey.
    const signInC = await signInCeremony();
    const signInOptions = signInC.options as { challenge: string };
    const added = await call('POST', '/api/account/passkeys', {
      cookie: ada.cookie,
      payload: {
        challengeId: signInC.challengeId,
        response: new SoftAuthenticator(ORIGIN).create({
          challenge: signInOptions.challenge,
          rp: { id: 'localhost' },
          user: { id: Buffer.from(ada.id).toString('base64url') },
        }),
      },
    });
    expect(added.statusCode, added.body).toBe(400);
    expect(added.json().code).toBe('passkey_expired');
    expect(await listOf(ada.cookie)).toHaveLength(1);

    // A challenge id that was never issued, and one in SQL-ish shape, are refused by the schema or
    // as expired, never a 500.
    for (const challengeId of [
      crypto.randomUUID(),
      "' OR '1'='1' --                       ".slice(0, 36),
      '%'.repeat(36),
    ]) {
      const res = await passkeySignIn({
        challengeId,
        response: phone.get({ challenge: signInOptions.challenge, rpId: 'localhost' }),
      });
      expect(res.statusCode, challengeId).toBe(400);
      expect(hasSession(res)).toBe(false);
    }
  });
});

describe(`probe: races (${testDbKind})`, () => {
  it('the same answer sent twice at once gives one session, not two', async () => {
    const m = await newMember();
    const phone = new SoftAuthenticator(ORIGIN);
    await addPasskey(m, phone);
    const c = await signInCeremony();
    const answer = { challengeId: c.challengeId, response: phone.get(c.options as never) };
    const results = await Promise.all(
      Array.from({ length: 5 }, () => passkeySignIn(answer, { remoteAddress: freshAddress() })),
    );
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(1);
    expect(results.filter(hasSession)).toHaveLength(1);
  });

  it('two answers with the same signature counter (a cloned authenticator) to two challenges at once: one session at most', async () => {
    const m = await newMember();
    const phone = new SoftAuthenticator(ORIGIN);
    await addPasskey(m, phone);
    // One good sign-in first so the stored counter is above 0 (counter 0 disables clone checks).
    const c0 = await signInCeremony();
    expect(
      (
        await passkeySignIn({
          challengeId: c0.challengeId,
          response: phone.get(c0.options as never),
        })
      ).statusCode,
    ).toBe(200);
    const credential = phone.credentials[0]!;
    const before = credential.counter;
    const c1 = await signInCeremony();
    const c2 = await signInCeremony();
    const a1 = phone.get(c1.options as never);
    credential.counter = before; // the clone holds the same count
    const a2 = phone.get(c2.options as never);
    const results = await Promise.all([
      passkeySignIn({ challengeId: c1.challengeId, response: a1 }),
      passkeySignIn({ challengeId: c2.challengeId, response: a2 }),
    ]);
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter(hasSession)).toHaveLength(1);
  });

  it('informational: an authenticator that always reports counter 0 (synced passkeys) keeps signing in', async () => {
    const m = await newMember();
    const phone = new SoftAuthenticator(ORIGIN);
    await addPasskey(m, phone);
    const credential = phone.credentials[0]!;
    for (let i = 0; i < 3; i++) {
      credential.counter = -1; // get() adds one: it signs with 0
      const c = await signInCeremony();
      const res = await passkeySignIn({
        challengeId: c.challengeId,
        response: phone.get(c.options as never),
      });
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it('concurrent registrations at nine passkeys keep at most ten', async () => {
    const m = await newMember();
    const phone = new SoftAuthenticator(ORIGIN);
    for (let i = 0; i < 9; i++) await addPasskey(m, phone);
    const ceremonies = [
      await registrationCeremony(m),
      await registrationCeremony(m),
      await registrationCeremony(m),
    ];
    const results = await Promise.all(
      ceremonies.map((c) =>
        call('POST', '/api/account/passkeys', {
          cookie: m.cookie,
          payload: { challengeId: c.challengeId, response: phone.create(c.options as never) },
        }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(results.every((r) => r.statusCode === 201 || r.statusCode === 409)).toBe(true);
    expect(await listOf(m.cookie)).toHaveLength(10);
  });
});

describe(`probe: origins and the relying party (${testDbKind})`, () => {
  it('an untrusted Origin gets no options and no session', async () => {
    const options = await call('POST', '/api/passkeys/sign-in/options', { origin: EVIL });
    expect(options.statusCode).toBe(403);

    const m = await newMember();
    const phone = new SoftAuthenticator(ORIGIN);
    await addPasskey(m, phone);
    // Registration options asked from a foreign page (with the member's cookie).
    expect(
      (
        await call('POST', '/api/account/passkeys/options', {
          cookie: m.cookie,
          origin: EVIL,
          payload: { authSecret: m.keys.authSecret },
        })
      ).statusCode,
    ).toBe(403);

    // A browser on evil.example signs with its own origin in clientData: refused.
    const credential = phone.credentials[0]!;
    const onEvil = new SoftAuthenticator(EVIL);
    const c1 = await signInCeremony();
    const r1 = await passkeySignIn(
      { challengeId: c1.challengeId, response: onEvil.get(c1.options as never, credential) },
      { origin: EVIL },
    );
    expect(r1.statusCode).toBe(400);
    expect(hasSession(r1)).toBe(false);

    // The shapes a foreign page can send without a CORS preflight (no CORS is served, so a JSON
    // body from another site never leaves the browser): a form or text/plain body with the
    // member's valid answer. None of them is parsed into a sign-in.
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const c = await signInCeremony();
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth/passkey/sign-in',
        headers: { origin: EVIL, 'content-type': type, 'sec-fetch-site': 'cross-site' },
        payload: JSON.stringify({
          challengeId: c.challengeId,
          response: phone.get(c.options as never),
        }),
      });
      expect(res.statusCode, `${type} ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(hasSession(res)).toBe(false);
    }
    // No CORS: a preflight from the foreign page is not granted.
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/auth/passkey/sign-in',
      headers: {
        origin: EVIL,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('informational: under NODE_ENV=test better-auth skips its own Origin check, so a foreign Origin with a cookie is not refused here', async () => {
    // better-auth/dist/context/create-context.mjs: skipOriginCheck defaults to isTest(). In
    // production the check is on and a cookie with a foreign Origin is refused (403) before the
    // endpoint runs; under vitest it cannot be observed.
    const m = await newMember();
    const phone = new SoftAuthenticator(ORIGIN);
    await addPasskey(m, phone);
    const c = await signInCeremony();
    const res = await passkeySignIn(
      { challengeId: c.challengeId, response: phone.get(c.options as never) },
      { origin: EVIL, cookie: m.cookie },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(await whoIs(sessionOf(res))).toBe(m.keys.email);
  });

  it('informational: with no cookie, the Origin header of the sign-in is not what decides; the signed clientData origin is', async () => {
    // A non-browser client holding the member's passkey (a relay) can send any Origin header; what
    // WebAuthn binds is the origin inside the signed clientData, which must be the public URL's.
    const m = await newMember();
    const phone = new SoftAuthenticator(ORIGIN);
    await addPasskey(m, phone);
    const c = await signInCeremony();
    const res = await passkeySignIn(
      { challengeId: c.challengeId, response: phone.get(c.options as never) },
      { origin: EVIL },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(await whoIs(sessionOf(res))).toBe(m.keys.email);
  });

  it('outside production a trusted dev origin is its own RP; a passkey of that RP does not answer for the public one', async () => {
    const port = t.services.config.PORT;
    const local = `http://127.0.0.1:${port}`;
    expect(trustedOrigins(t.services.config)).toContain(local);
    const m = await newMember();
    const phone = new SoftAuthenticator(local);
    const reg = await registrationCeremony(m, { origin: local });
    expect((reg.options as { rp: { id: string } }).rp.id).toBe('127.0.0.1');
    const added = await call('POST', '/api/account/passkeys', {
      cookie: m.cookie,
      origin: local,
      payload: { challengeId: reg.challengeId, response: phone.create(reg.options as never) },
    });
    expect(added.statusCode, added.body).toBe(201);

    // A sign-in at the public URL (RP localhost) answered by the 127.0.0.1 passkey: refused.
    const c = await signInCeremony();
    const asLocal = phone.get({
      challenge: (c.options as { challenge: string }).challenge,
      rpId: '127.0.0.1',
    });
    const r = await passkeySignIn({ challengeId: c.challengeId, response: asLocal });
    expect(r.statusCode).toBe(400);
    expect(r.json().code).toBe('passkey_failed');
    // Answering the public RP's challenge while claiming the RP of 127.0.0.1 in the Origin header
    // does not help either when clientData says otherwise.
    const c2 = await signInCeremony();
    const mixed = new SoftAuthenticator(ORIGIN).get(
      { challenge: (c2.options as { challenge: string }).challenge, rpId: '127.0.0.1' },
      phone.credentials[0]!,
    );
    const r2 = await passkeySignIn(
      { challengeId: c2.challengeId, response: mixed },
      { origin: local },
    );
    expect(r2.statusCode).toBe(400);
    expect(hasSession(r2)).toBe(false);
  });

  it('in production the RP is always the public URL’s, whatever Origin the request names', () => {
    const parsed = parseConfig({
      NODE_ENV: 'production',
      PORT: '3000',
      PUBLIC_URL: 'https://wallet.example',
      SMTP_URL: 'smtp://localhost:25',
      OPERATOR_API_KEY: 'x'.repeat(40),
      AUTH_SECRET: 'y'.repeat(40),
      VAPID_PUBLIC_KEY:
        'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U',
      VAPID_PRIVATE_KEY: 'UUxI4O8-FbRouAevSmBQ6o18hgE4nSG3qwvJTfKc-ls',
      COMMUNITY_APP_CLIENT_SECRET: 'z'.repeat(40),
      CHAIN_RPC_URL: 'http://127.0.0.1:8545',
      TOKEN_ADDRESS: `0x${'1'.repeat(40)}`,
      DISTRIBUTOR_ADDRESS: `0x${'2'.repeat(40)}`,
      OPERATOR_PRIVATE_KEY: `0x${'3'.repeat(64)}`,
    });
    if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
    const config = parsed.config;
    expect(config.isProduction).toBe(true);
    expect(trustedOrigins(config)).toEqual(['https://wallet.example']);
    for (const origin of [
      'http://127.0.0.1:3000',
      'http://localhost:3000',
      'http://localhost:5173',
      EVIL,
      'https://wallet.example.evil.example',
      'https://evil.example/https://wallet.example',
      'https://WALLET.example',
      'null',
      '',
      null,
      undefined,
    ])
      expect(passkeyParty(config, origin), String(origin)).toMatchObject({
        rpID: 'wallet.example',
        origin: 'https://wallet.example',
      });
  });
});

describe(`probe: whose account a passkey opens (${testDbKind})`, () => {
  it('the userHandle in the answer is ignored: the session is the credential owner’s', async () => {
    const ada = await newMember();
    const eve = await newMember();
    await addPasskey(ada, new SoftAuthenticator(ORIGIN));
    const evePhone = new SoftAuthenticator(ORIGIN);
    await addPasskey(eve, evePhone);
    const eveCredential = evePhone.credentials[0]!;
    for (const handle of [
      Buffer.from(ada.id).toString('base64url'),
      Buffer.from(ada.id).toString('hex').slice(0, 64),
    ]) {
      eveCredential.userHandle = handle;
      const c = await signInCeremony();
      const res = await passkeySignIn({
        challengeId: c.challengeId,
        response: evePhone.get(c.options as never),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(await whoIs(sessionOf(res))).toBe(eve.keys.email);
    }
  });

  it('a credential id of another member cannot be registered again (unsigned "none" attestation), nor signed for with another key', async () => {
    const ada = await newMember();
    const eve = await newMember();
    const adaPhone = new SoftAuthenticator(ORIGIN);
    const adaItem = await addPasskey(ada, adaPhone);
    const adaId = adaPhone.credentials[0]!.id;
    const [adaRowBefore] = await db()
      .selectFrom('passkeys')
      .select(['user_id', 'public_key'])
      .where('id', '=', adaItem.id)
      .execute();

    // Eve makes a passkey, then swaps its id for Ada's (credential ids are not secret): "none"
    // attestation signs nothing, so the server sees a well-formed new passkey with Ada's id.
    const evePhone = new SoftAuthenticator(ORIGIN);
    const c = await registrationCeremony(eve);
    const made = evePhone.create(c.options as never);
    const eveId = evePhone.credentials[0]!.id;
    const attestation = Buffer.from(made.response.attestationObject, 'base64url');
    const at = attestation.indexOf(eveId);
    expect(at).toBeGreaterThan(0);
    adaId.copy(attestation, at);
    const forged = {
      ...made,
      id: adaId.toString('base64url'),
      rawId: adaId.toString('base64url'),
      response: { ...made.response, attestationObject: attestation.toString('base64url') },
    };
    const res = await call('POST', '/api/account/passkeys', {
      cookie: eve.cookie,
      payload: { challengeId: c.challengeId, response: forged },
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(await listOf(eve.cookie)).toEqual([]);
    const [adaRowAfter] = await db()
      .selectFrom('passkeys')
      .select(['user_id', 'public_key'])
      .where('id', '=', adaItem.id)
      .execute();
    expect(adaRowAfter).toEqual(adaRowBefore);

    // Eve's key signing under Ada's credential id: the signature does not check out.
    evePhone.credentials[0]!.id = adaId;
    const s = await signInCeremony();
    const signed = await passkeySignIn({
      challengeId: s.challengeId,
      response: evePhone.get(s.options as never),
    });
    expect(signed.statusCode).toBe(400);
    expect(hasSession(signed)).toBe(false);
    // Ada's own passkey still signs Ada in.
    const s2 = await signInCeremony();
    const mine = await passkeySignIn({
      challengeId: s2.challengeId,
      response: adaPhone.get(s2.options as never),
    });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(await whoIs(sessionOf(mine))).toBe(ada.keys.email);
  });

  it('a deleted account’s passkey signs nobody in, even with an answer made before the deletion; nothing of it is left', async () => {
    const m = await newMember();
    const phone = new SoftAuthenticator(ORIGIN);
    const item = await addPasskey(m, phone);
    await call('PUT', `/api/account/passkeys/${item.id}/wallet-key`, {
      cookie: m.cookie,
      payload: { prfSalt: newPrfSalt(), iv: 'A'.repeat(16), ciphertext: 'B'.repeat(80) },
    });
    await registrationCeremony(m); // a registration challenge left behind
    const c = await signInCeremony();
    const answer = { challengeId: c.challengeId, response: phone.get(c.options as never) };
    const deleted = await call('DELETE', '/api/account', {
      cookie: m.cookie,
      payload: { authSecret: m.keys.authSecret },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const res = await passkeySignIn(answer);
    expect(res.statusCode).toBe(400);
    expect(hasSession(res)).toBe(false);
    const left = await sql<{ n: number }>`
      SELECT (SELECT count(*) FROM passkeys WHERE user_id = ${m.id})::int
           + (SELECT count(*) FROM passkeys WHERE credential_id = ${phone.credentials[0]!.id.toString('base64url')})::int
           + (SELECT count(*) FROM passkey_wallet_keys WHERE passkey_id = ${item.id})::int
           + (SELECT count(*) FROM webauthn_challenges WHERE user_id = ${m.id})::int
           + (SELECT count(*) FROM session WHERE "userId" = ${m.id})::int AS n`.execute(db());
    expect(left.rows[0]!.n).toBe(0);
    // The old session cookie opens nothing.
    expect(await whoIs(m.cookie)).toBe(401);
  });

  it('a member whose e-mail is not confirmed gets no session from a passkey (REQUIRE_EMAIL_CONFIRMATION)', async () => {
    expect(t.services.config.REQUIRE_EMAIL_CONFIRMATION).toBe(true);
    const m = await newMember();
    const phone = new SoftAuthenticator(ORIGIN);
    await addPasskey(m, phone);
    await sql`UPDATE "user" SET "emailVerified" = false WHERE id = ${m.id}`.execute(db());
    const c = await signInCeremony();
    const res = await passkeySignIn({
      challengeId: c.challengeId,
      response: phone.get(c.options as never),
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().code).toBe('email_not_confirmed');
    expect(hasSession(res)).toBe(false);
  });

  it('an unconfirmed registration has no session to add a passkey with', async () => {
    const keys = await cloneMemberKeys(base, uniqueEmail('unconfirmed'));
    const reg = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: await registerBody(t.app, keys),
    });
    expect(reg.statusCode, reg.body).toBe(201);
    const cookie = cookieOf(reg.headers['set-cookie']);
    const res = await call('POST', '/api/account/passkeys/options', {
      cookie,
      payload: { authSecret: keys.authSecret },
    });
    expect(res.statusCode).toBe(401);
  });

  it('informational (by design): a passkey keeps signing in after the password change', async () => {
    const m = await newMember();
    const phone = new SoftAuthenticator(ORIGIN);
    await addPasskey(m, phone);
    const changed = await call('POST', '/api/account/password', {
      cookie: m.cookie,
      payload: {
        currentAuthSecret: m.keys.authSecret,
        newAuthSecret: await deriveAuthSecret('another new password', m.keys.email, 1000),
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
    const c = await signInCeremony();
    const res = await passkeySignIn({
      challengeId: c.challengeId,
      response: phone.get(c.options as never),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await whoIs(sessionOf(res))).toBe(m.keys.email);
  });

  it('informational: removing a passkey does not end the sessions it opened', async () => {
    const m = await newMember();
    const phone = new SoftAuthenticator(ORIGIN);
    const item = await addPasskey(m, phone);
    const c = await signInCeremony();
    const res = await passkeySignIn({
      challengeId: c.challengeId,
      response: phone.get(c.options as never),
    });
    const thief = sessionOf(res);
    expect(await whoIs(thief)).toBe(m.keys.email);
    const removed = await call('DELETE', `/api/account/passkeys/${item.id}`, {
      cookie: m.cookie,
      payload: { authSecret: m.keys.authSecret },
    });
    expect(removed.statusCode).toBe(200);
    // Recorded as it is: the session made with the removed passkey still works.
    expect(await whoIs(thief)).toBe(m.keys.email);
  });
});

describe(`probe: ids, names and bodies (${testDbKind})`, () => {
  it('wallet-key PUT, rename and remove with SQL-ish, odd or foreign ids change nothing and never 500', async () => {
    const ada = await newMember();
    const eve = await newMember();
    const item = await addPasskey(ada, new SoftAuthenticator(ORIGIN));
    const sealed = { prfSalt: newPrfSalt(), iv: 'A'.repeat(16), ciphertext: 'B'.repeat(80) };
    const ids = [
      item.id,
      `${item.id}' OR '1'='1`,
      "' OR 1=1 --",
      "1'; DROP TABLE passkeys; --",
      '%25',
      '*',
      `${item.id.toUpperCase()}`,
      ` ${item.id}`,
      `${item.id}%00`,
      '%00',
      'x'.repeat(65),
      '..%2F..%2Fapi%2Fme',
    ];
    for (const id of ids) {
      for (const [method, url, payload] of [
        ['PUT', `/api/account/passkeys/${id}/wallet-key`, sealed],
        ['PATCH', `/api/account/passkeys/${id}`, { name: 'pwned' }],
        ['DELETE', `/api/account/passkeys/${id}`, { authSecret: eve.keys.authSecret }],
      ] as const) {
        const res = await call(method, url, { cookie: eve.cookie, payload });
        expect(res.statusCode, `${method} ${url} ${res.body}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${method} ${url} ${res.body}`).toBeLessThan(500);
      }
    }
    // Ada's passkey: untouched, no wallet key given to it, the tables all there.
    expect(await listOf(ada.cookie)).toEqual([item]);
    const n = await db()
      .selectFrom('passkey_wallet_keys')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('passkey_id', '=', item.id)
      .executeTakeFirstOrThrow();
    expect(n.n).toBe(0);
    // Eve's own SQL-ish ids also fail on her own account (nothing matches more than one row).
    const mine = await call('PUT', `/api/account/passkeys/${"' OR ''='"}/wallet-key`, {
      cookie: ada.cookie,
      payload: sealed,
    });
    expect(mine.statusCode).toBe(404);
  });

  it('names: NUL, too long (in code units or code points), blank, or not a string are refused; HTML is kept as text, never a 500', async () => {
    const m = await newMember();
    const item = await addPasskey(m, new SoftAuthenticator(ORIGIN));
    const rename = (name: unknown) =>
      call('PATCH', `/api/account/passkeys/${item.id}`, { cookie: m.cookie, payload: { name } });
    for (const name of [
      'a\u0000b',
      '\u0000',
      'x'.repeat(61),
      'x'.repeat(100_000),
      '😀'.repeat(61), // 61 code points (zod and PostgreSQL both count code points)
      '   ',
      '',
      42,
      null,
      ['a'],
      { toString: 'a' },
    ]) {
      const res = await rename(name);
      expect(res.statusCode, JSON.stringify(name)?.slice(0, 40)).toBe(400);
    }
    for (const name of [
      '<img src=x onerror=alert(1)>',
      '"><script>alert(1)</script>',
      '\u202Eevil\u202C',
      '\uD800', // a lone surrogate
      "Robert'); DROP TABLE passkeys;--",
      '😀'.repeat(60), // 60 code points, 120 UTF-16 units: within both limits
      'x'.repeat(60),
    ]) {
      const res = await rename(name);
      expect(res.statusCode, `${JSON.stringify(name)} ${res.body}`).toBeLessThan(500);
      if (res.statusCode === 200) {
        const list = await call('GET', '/api/account/passkeys', { cookie: m.cookie });
        expect(list.headers['content-type']).toMatch(/^application\/json/);
        const stored = (list.json() as { passkeys: PasskeyItem[] }).passkeys[0]!.name;
        if (name !== '\uD800') expect(stored).toBe(name);
      }
    }
    // Extra fields in the body move nothing (the passkey stays Ada's).
    await rename('x'); // reset
    const extra = await call('PATCH', `/api/account/passkeys/${item.id}`, {
      cookie: m.cookie,
      payload: { name: 'ok', user_id: 'someone', counter: 0, credential_id: 'A'.repeat(20) },
    });
    expect(extra.statusCode).toBeLessThan(500);
    const [row] = await db()
      .selectFrom('passkeys')
      .select(['user_id', 'credential_id'])
      .where('id', '=', item.id)
      .execute();
    expect(row).toEqual({ user_id: m.id, credential_id: item.credentialId });
  });

  it('a hostile User-Agent cannot name the passkey or reach the security mail', async () => {
    const m = await newMember();
    const ua = `<script>alert(1)</script> ${'A'.repeat(5000)} Android Chrome/1`;
    const c = await registrationCeremony(m);
    const res = await call('POST', '/api/account/passkeys', {
      cookie: m.cookie,
      headers: { 'user-agent': ua },
      payload: {
        challengeId: c.challengeId,
        response: new SoftAuthenticator(ORIGIN).create(c.options as never),
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const name = (res.json() as PasskeyItem).name;
    expect(name).not.toMatch(/[<>]/);
    expect(name.length).toBeLessThanOrEqual(60);
    const mails = await db()
      .selectFrom('mail_outbox')
      .select(['subject', 'text_body', 'html_body'])
      .where('to_address', '=', m.keys.email)
      .where('subject', '=', 'A passkey was added to your account')
      .execute();
    expect(mails.length).toBeGreaterThan(0);
    for (const mail of mails)
      expect(`${mail.text_body}${mail.html_body}`).not.toContain('<script>');
  });

  it('malformed sign-in bodies: never a 500 and never a session', async () => {
    const c = await signInCeremony();
    const phone = new SoftAuthenticator(ORIGIN);
    phone.create({ challenge: 'AAAA', rp: { id: 'localhost' }, user: { id: 'AAAA' } });
    const good = phone.get(c.options as never);
    for (const payload of [
      null,
      'string',
      [],
      { challengeId: c.challengeId, response: { ...good, id: 'A'.repeat(1367) } },
      { challengeId: c.challengeId, response: { ...good, rawId: undefined } },
      {
        challengeId: c.challengeId,
        response: { ...good, response: { ...good.response, signature: '' } },
      },
      {
        challengeId: c.challengeId,
        response: { ...good, response: { ...good.response, authenticatorData: 'AA' } },
      },
      {
        challengeId: c.challengeId,
        response: { ...good, response: { ...good.response, clientDataJSON: 'e30' } },
      },
      { challengeId: c.challengeId, response: good, __proto__: { admin: true } },
    ]) {
      const res = await passkeySignIn(payload);
      expect(res.statusCode, JSON.stringify(payload)?.slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(hasSession(res)).toBe(false);
    }
  });
});

describe(`probe: filling the challenge table (${testDbKind})`, () => {
  const countChallenges = async () =>
    (
      await db()
        .selectFrom('webauthn_challenges')
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow()
    ).n;

  it('sign-in options from one address stop at the per-address limit, X-Forwarded-For does not reset it', async () => {
    const before = await countChallenges();
    const address = '198.51.100.10';
    let limited = 0;
    for (let i = 0; i < PER_IP + 20; i++) {
      const res = await call('POST', '/api/passkeys/sign-in/options', {
        remoteAddress: address,
        headers: {
          'x-forwarded-for': `10.0.${i >> 8}.${i & 255}`,
          'x-real-ip': `10.1.0.${i & 255}`,
        },
      });
      if (res.statusCode === 429) limited += 1;
      else expect(res.statusCode).toBe(200);
    }
    expect(limited).toBeGreaterThanOrEqual(20);
    expect((await countChallenges()) - before).toBeLessThanOrEqual(PER_IP);
    // One IPv6 /64 counts as one address.
    let limited6 = 0;
    for (let i = 0; i < PER_IP + 5; i++) {
      const res = await call('POST', '/api/passkeys/sign-in/options', {
        remoteAddress: `2001:db8:1:2::${(i + 1).toString(16)}`,
      });
      if (res.statusCode === 429) limited6 += 1;
    }
    expect(limited6).toBeGreaterThanOrEqual(5);
  });

  it('registration options of one member are bounded too (password check per address)', async () => {
    const m = await newMember();
    const address = '198.51.100.20';
    let ok = 0;
    let limited = 0;
    for (let i = 0; i < PER_IP + 10; i++) {
      const res = await call('POST', '/api/account/passkeys/options', {
        cookie: m.cookie,
        remoteAddress: address,
        payload: { authSecret: m.keys.authSecret },
      });
      if (res.statusCode === 200) ok += 1;
      else if (res.statusCode === 429) limited += 1;
    }
    expect(limited).toBeGreaterThan(0);
    const rows = await db()
      .selectFrom('webauthn_challenges')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('user_id', '=', m.id)
      .executeTakeFirstOrThrow();
    expect(rows.n).toBe(ok);
    expect(rows.n).toBeLessThanOrEqual(PER_IP);
  });

  it('no path spelling reaches the passkey sign-in around its per-address limit', async () => {
    const stranger = new SoftAuthenticator(ORIGIN);
    stranger.create({ challenge: 'AAAA', rp: { id: 'localhost' }, user: { id: 'AAAA' } });
    const body = () => ({
      challengeId: crypto.randomUUID(),
      response: stranger.get({ challenge: 'AAAA', rpId: 'localhost' }),
    });
    for (const path of [
      '/auth/passkey/sign-in/',
      '/auth/passkey//sign-in',
      '//auth/passkey/sign-in',
      '/auth/Passkey/sign-in',
      '/AUTH/passkey/sign-in',
      '/auth/sign-out/../passkey/sign-in',
      '/auth/./passkey/sign-in',
      '/auth/%70asskey/sign-in',
      '/auth/passkey/sign-in;x',
      '/%61uth/passkey/sign-in',
    ]) {
      const address = freshAddress();
      let reached = 0;
      let limited = 0;
      for (let i = 0; i < PER_IP + 3; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: path,
          headers: { origin: ORIGIN },
          remoteAddress: address,
          payload: body(),
        });
        expect(res.statusCode, `${path} ${res.body}`).toBeLessThan(500);
        if (res.statusCode === 429) limited += 1;
        else if (res.statusCode === 400 && res.json().code === 'passkey_expired') reached += 1;
        else break; // this spelling goes nowhere
      }
      if (reached > 0) expect(limited, path).toBeGreaterThan(0);
    }
  });
});
