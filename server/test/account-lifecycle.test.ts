// The account page's password change, data export and deletion, on PGlite and (with
// TEST_DB=postgres) PostgreSQL: each route's success, and the attacks — no session, a wrong
// current password (refused, then limited, nothing changed), another wallet's keystore, a bad or
// replayed proof, malformed bodies, a failure half-way — and that no member's export or deletion
// exposes or removes anything of another member.
import { deriveAuthSecret } from '@crw/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareRound } from '../src/domain/distribution/rounds';
import { entitlements } from '../src/domain/distribution/entitlements';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';
import {
  cloneMemberKeys,
  makeMemberKeys,
  ORIGIN,
  registerBody,
  signedInCookie,
  signIn,
  walletProof,
  type MemberKeys,
} from './helpers/members';
import { passGate } from '../src/testing/signup-gate';

let t: TestApp;
let base: MemberKeys;

const db = () => t.services.database.db;

/** The same key locked again, as the worker's reencrypt returns it (a new keystore id tells it apart). */
const relocked = (keys: MemberKeys) =>
  JSON.stringify({ ...(JSON.parse(keys.keystore) as object), id: crypto.randomUUID() });
const passwordHashOf = async (userId: string) =>
  (
    await sql<{
      password: string;
    }>`SELECT password FROM account WHERE "userId" = ${userId}`.execute(db())
  ).rows[0]?.password;
const keystoreOf = async (userId: string) =>
  (
    await db()
      .selectFrom('user_wallets')
      .select('encrypted_wallet')
      .where('user_id', '=', userId)
      .executeTakeFirst()
  )?.encrypted_wallet;
const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });

/** A confirmed member, signed in, with a second session (another browser). */
async function member(name = 'member', extra: Record<string, unknown> = {}) {
  const keys = await cloneMemberKeys(
    base,
    `${name}.${crypto.randomUUID().slice(0, 8)}@example.test`,
  );
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/register',
    payload: await registerBody(t.app, keys, extra),
  });
  expect(res.statusCode).toBe(201);
  const userId = res.json().userId as string;
  const { text_body: text } = await db()
    .selectFrom('mail_outbox')
    .select('text_body')
    .where('to_address', '=', keys.email)
    .executeTakeFirstOrThrow();
  const link = new URL(/https?:\/\/\S+\/auth\/verify-email\S*/.exec(text)![0]);
  await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
  return {
    keys,
    userId,
    cookie: await signedInCookie(t.app, keys),
    otherCookie: await signedInCookie(t.app, keys),
  };
}

async function changeBody(
  keys: MemberKeys,
  cookie: string,
  opts: {
    current?: string;
    next?: string;
    keystore?: string;
    address?: string;
    signer?: MemberKeys;
  } = {},
) {
  const signer = opts.signer ?? keys;
  return {
    currentAuthSecret: opts.current ?? keys.authSecret,
    newAuthSecret: opts.next ?? (await deriveAuthSecret('a brand new password', keys.email, 1000)),
    wallet: {
      address: opts.address ?? keys.address,
      keystore: opts.keystore ?? relocked(keys),
      proof: { ...(await walletProof(t.app, signer, 'change-password', cookie)) },
    },
  };
}
const changePassword = (cookie: string, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/api/account/password',
    headers: { cookie, origin: ORIGIN },
    payload: payload as object,
  });
const deleteAccount = (cookie: string, payload: unknown) =>
  t.app.inject({
    method: 'DELETE',
    url: '/api/account',
    headers: { cookie, origin: ORIGIN },
    payload: payload as object,
  });
const exportOf = (cookie: string) =>
  t.app.inject({ method: 'GET', url: '/api/account/export', headers: { cookie } });

beforeAll(async () => {
  // Every request here comes from one address; the per-member limit stays at its default (5). No
  // relayer: a claim a test queues stays queued while it is looked at.
  t = await buildTestApp({
    env: { PUBLIC_URL: ORIGIN, AUTH_RATE_LIMIT_PER_IP: '100000', SPONSOR_CLAIMS: 'false' },
  });
  base = await makeMemberKeys();
}, 60_000);
afterAll(() => t?.close());

describe(`change password (${testDbKind})`, () => {
  it('without a session → 401, and no challenge of this purpose is issued to a stranger', async () => {
    const m = await member();
    const res = await changePassword('', await changeBody(m.keys, m.cookie));
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('unauthorized');
    const challenge = await t.app.inject({
      method: 'POST',
      url: '/api/wallet/challenge',
      headers: { origin: ORIGIN },
      payload: { purpose: 'change-password' },
    });
    expect(challenge.statusCode).toBe(401);
  });

  it('replaces the auth secret and the keystore together, keeps this session and ends every other one', async () => {
    const m = await member();
    const next = await deriveAuthSecret('a brand new password', m.keys.email, 1000);
    const body = await changeBody(m.keys, m.cookie, { next });
    const res = await changePassword(m.cookie, body);
    expect(res.statusCode).toBe(200);
    // The confirmation link's session and the second browser's.
    expect(res.json()).toEqual({ ok: true, otherSessionsEnded: 2 });
    expect(await keystoreOf(m.userId)).toBe(body.wallet.keystore);
    expect((await signIn(t.app, m.keys.email, m.keys.authSecret)).statusCode).toBe(401);
    expect((await signIn(t.app, m.keys.email, next)).statusCode).toBe(200);
    expect((await me(m.cookie)).statusCode).toBe(200);
    expect((await me(m.cookie)).json().wallet.address).toBe(m.keys.address);
    expect((await me(m.otherCookie)).statusCode).toBe(401);
  });

  it('a replayed proof is refused and changes nothing', async () => {
    const m = await member();
    const body = await changeBody(m.keys, m.cookie);
    expect((await changePassword(m.cookie, body)).statusCode).toBe(200);
    const [hash, keystore] = [await passwordHashOf(m.userId), await keystoreOf(m.userId)];
    const again = await changePassword(m.cookie, {
      ...body,
      currentAuthSecret: body.newAuthSecret,
      wallet: { ...body.wallet, keystore: relocked(m.keys) },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('invalid_wallet_proof');
    expect(await passwordHashOf(m.userId)).toBe(hash);
    expect(await keystoreOf(m.userId)).toBe(keystore);
  });

  it('a wrong current password → 403 wrong_password, nothing changed, and after the limit 429 even for the right one', async () => {
    const m = await member();
    const [hash, keystore] = [await passwordHashOf(m.userId), await keystoreOf(m.userId)];
    const codes: number[] = [];
    for (let i = 0; i < 5; i++)
      codes.push(
        (
          await changePassword(
            m.cookie,
            await changeBody(m.keys, m.cookie, { current: 'f'.repeat(64) }),
          )
        ).statusCode,
      );
    expect(codes).toEqual([403, 403, 403, 403, 403]);
    const wrong = await changePassword(
      m.cookie,
      await changeBody(m.keys, m.cookie, { current: 'f'.repeat(64) }),
    );
    expect(wrong.statusCode).toBe(429);
    expect(wrong.json()).toEqual({
      code: 'rate_limited',
      message: 'Too many attempts. Please try again in 10 minutes.',
    });
    const right = await changePassword(m.cookie, await changeBody(m.keys, m.cookie));
    expect(right.statusCode).toBe(429);
    // Deleting the account asks for the same password: it shares the member's count.
    expect((await deleteAccount(m.cookie, { authSecret: m.keys.authSecret })).statusCode).toBe(429);
    expect(await passwordHashOf(m.userId)).toBe(hash);
    expect(await keystoreOf(m.userId)).toBe(keystore);
    expect((await me(m.otherCookie)).statusCode).toBe(200);
    expect((await signIn(t.app, m.keys.email, m.keys.authSecret)).statusCode).toBe(200);
  });

  it('the wrong-password message is plain', async () => {
    const m = await member();
    const res = await changePassword(
      m.cookie,
      await changeBody(m.keys, m.cookie, { current: 'e'.repeat(64) }),
    );
    expect(res.json()).toEqual({
      code: 'wrong_password',
      message: 'Your current password is not correct.',
    });
  });

  it("another wallet's keystore (with that wallet's own valid proof) → 409, nothing changed", async () => {
    const m = await member();
    const stranger = await cloneMemberKeys(base);
    const [hash, keystore] = [await passwordHashOf(m.userId), await keystoreOf(m.userId)];
    const res = await changePassword(
      m.cookie,
      await changeBody(m.keys, m.cookie, {
        address: stranger.address,
        keystore: stranger.keystore,
        signer: stranger,
      }),
    );
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('wallet_mismatch');
    expect(await passwordHashOf(m.userId)).toBe(hash);
    expect(await keystoreOf(m.userId)).toBe(keystore);
    expect((await me(m.otherCookie)).statusCode).toBe(200);
    expect((await signIn(t.app, m.keys.email, m.keys.authSecret)).statusCode).toBe(200);
  });

  it('a keystore of another address than the one named, or a proof signed by another key → 400, nothing changed', async () => {
    const m = await member();
    const stranger = await cloneMemberKeys(base);
    const hash = await passwordHashOf(m.userId);
    const mixed = await changePassword(
      m.cookie,
      await changeBody(m.keys, m.cookie, { keystore: stranger.keystore }),
    );
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json().code).toBe('invalid_keystore');
    const forged = await changePassword(
      m.cookie,
      await changeBody(m.keys, m.cookie, { signer: stranger }),
    );
    expect(forged.statusCode).toBe(400);
    expect(forged.json().code).toBe('invalid_wallet_proof');
    // A save-wallet proof is not a change-password proof.
    const body = await changeBody(m.keys, m.cookie);
    const other = await changePassword(m.cookie, {
      ...body,
      wallet: { ...body.wallet, proof: await walletProof(t.app, m.keys, 'save-wallet', m.cookie) },
    });
    expect(other.statusCode).toBe(400);
    expect(await passwordHashOf(m.userId)).toBe(hash);
    expect((await me(m.otherCookie)).statusCode).toBe(200);
  });

  it('malformed and oversized bodies → 400 (413 past the body limit), nothing changed', async () => {
    const m = await member();
    const body = await changeBody(m.keys, m.cookie);
    const hash = await passwordHashOf(m.userId);
    for (const payload of [
      {},
      { ...body, currentAuthSecret: 'my old password' },
      { ...body, newAuthSecret: 'A'.repeat(64) },
      { ...body, wallet: { ...body.wallet, keystore: 'x'.repeat(5000) } },
      { ...body, wallet: { ...body.wallet, address: 'not an address' } },
      { ...body, wallet: { ...body.wallet, proof: { nonce: 'zz', signature: '0x' } } },
      { ...body, newAuthSecret: `${'a'.repeat(63)}\u0000` },
    ]) {
      const res = await changePassword(m.cookie, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json().code).toBe('invalid_request');
    }
    const huge = await changePassword(m.cookie, { ...body, padding: 'x'.repeat(200_000) });
    expect(huge.statusCode).toBe(413);
    expect(await passwordHashOf(m.userId)).toBe(hash);
  });

  it('a failure half-way (saving the keystore) leaves the password, the keystore and the sessions as they were', async () => {
    const m = await member();
    const [hash, keystore] = [await passwordHashOf(m.userId), await keystoreOf(m.userId)];
    await sql`CREATE FUNCTION fail_wallet_save() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'forced failure'; END $$`.execute(
      db(),
    );
    await sql`CREATE TRIGGER fail_wallet_save BEFORE UPDATE ON user_wallets FOR EACH ROW EXECUTE FUNCTION fail_wallet_save()`.execute(
      db(),
    );
    try {
      const res = await changePassword(m.cookie, await changeBody(m.keys, m.cookie));
      expect(res.statusCode).toBe(500);
    } finally {
      await sql`DROP TRIGGER fail_wallet_save ON user_wallets`.execute(db());
      await sql`DROP FUNCTION fail_wallet_save()`.execute(db());
    }
    expect(await passwordHashOf(m.userId)).toBe(hash);
    expect(await keystoreOf(m.userId)).toBe(keystore);
    expect((await me(m.otherCookie)).statusCode).toBe(200);
  });
});

describe(`download my data (${testDbKind})`, () => {
  it('without a session → 401', async () => {
    const res = await exportOf('');
    expect(res.statusCode).toBe(401);
  });

  it("is an attachment named by the date, with the member's data and nothing of the members they referred or of their referrer", async () => {
    const referrer = await member('referrer', { firstName: 'Rosalind', lastName: 'Franklin' });
    const referrerCode = (await me(referrer.cookie)).json().referralCode as string;
    const ada = await member('ada', { referralCode: referrerCode });
    const adaCode = (await me(ada.cookie)).json().referralCode as string;
    const grace = await member('grace', {
      firstName: 'Grace',
      lastName: 'Hopper',
      referralCode: adaCode,
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/operator/care-actions',
      headers: { authorization: `Bearer ${t.services.operatorKey}` },
      payload: {
        idempotencyKey: `visit-${ada.userId}`,
        email: ada.keys.email,
        caps: 25,
        description: 'Visited a neighbour',
      },
    });
    const round = Number(
      (
        await sql<{
          n: number;
        }>`SELECT coalesce(max(round_index), 0)::int + 1 AS n FROM distribution_rounds`.execute(
          db(),
        )
      ).rows[0]!.n,
    );
    await prepareRound(db(), round, await entitlements(db(), round - 1));

    const res = await exportOf(ada.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="community-rewards-data-${new Date().toISOString().slice(0, 10)}.json"`,
    );
    expect(res.headers['cache-control']).toBe('no-store');
    const data = res.json();
    expect(data.profile).toMatchObject({
      email: ada.keys.email,
      fullName: 'Ada Lovelace',
      referralCode: adaCode,
      emailConfirmed: true,
    });
    expect(data.wallet.address).toBe(ada.keys.address);
    expect(data.caps).toEqual({ registration: 200, referrals: 100, careActions: 25, total: 325 });
    expect(
      data.ledger.map(
        (l: { kind: string; caps: number; level: number | null; description: string }) => [
          l.kind,
          l.caps,
          l.level,
          l.description,
        ],
      ),
    ).toEqual([
      ['signup', 200, null, 'Registration bonus'],
      ['referral', 100, 1, 'Level 1 referral'],
      ['care_action', 25, null, 'Visited a neighbour'],
    ]);
    expect(data.referralCounts).toEqual({ level1: 1, level2: 0, level3: 0 });
    expect(data.distributions).toEqual([
      expect.objectContaining({ round, status: 'prepared', walletAddress: ada.keys.address }),
    ]);
    expect(data.claims).toEqual({ onChain: [], sponsored: [] });

    const text = res.body;
    for (const other of [grace, referrer]) {
      for (const secret of [
        other.userId,
        other.keys.email,
        other.keys.address.toLowerCase().slice(2),
        other.keys.address.slice(2),
      ])
        expect(text).not.toContain(secret);
    }
    expect(text).not.toContain('Grace');
    expect(text).not.toContain('Hopper');
    expect(text).not.toContain('Rosalind');
    expect(text).not.toContain(referrerCode);
    expect(text).not.toMatch(/from_?user|source_?key|referred_?by/i);

    // And the referrer's own export names neither Ada nor Grace.
    const theirs = (await exportOf(referrer.cookie)).body;
    expect(JSON.parse(theirs).referralCounts).toEqual({ level1: 1, level2: 1, level3: 0 });
    for (const other of [ada, grace])
      for (const secret of [other.userId, other.keys.email, other.keys.address.slice(2)])
        expect(theirs).not.toContain(secret);
    expect(theirs).not.toContain('Lovelace');
    expect(theirs).not.toContain('Hopper');
  });
});

describe(`delete my account (${testDbKind})`, () => {
  it('without a session → 401; with a wrong password → 403 and the account stays', async () => {
    const m = await member();
    expect((await deleteAccount('', { authSecret: m.keys.authSecret })).statusCode).toBe(401);
    const wrong = await deleteAccount(m.cookie, { authSecret: 'f'.repeat(64) });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().code).toBe('wrong_password');
    for (const payload of [{}, { authSecret: 'password' }, { authSecret: 'x'.repeat(300_000) }]) {
      expect((await deleteAccount(m.cookie, payload)).statusCode).toBeGreaterThanOrEqual(400);
      expect((await deleteAccount(m.cookie, payload)).statusCode).toBeLessThan(500);
    }
    expect((await me(m.cookie)).statusCode).toBe(200);
    expect(await passwordHashOf(m.userId)).toBeTruthy();
  });

  it('a sponsored claim on its way → 409, the account stays', async () => {
    const m = await member();
    await db()
      .insertInto('sponsored_claims')
      .values({
        user_id: m.userId,
        account: m.keys.address.toLowerCase(),
        round_index: 1,
        cumulative_amount: '1',
        amount: '1',
        signature: `0x${'1'.repeat(130)}`,
        deadline: new Date(Date.now() + 600_000),
        status: 'queued',
        reserved_wei: '0',
      })
      .execute();
    const res = await deleteAccount(m.cookie, { authSecret: m.keys.authSecret });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('claim_in_progress');
    expect((await me(m.cookie)).statusCode).toBe(200);
    await db().deleteFrom('sponsored_claims').where('user_id', '=', m.userId).execute();
  });

  it("ends every session, leaves the referrer's CAPs and counts as they were, leaves nothing that names the member, and frees the e-mail", async () => {
    const referrer = await member('referrer');
    const code = (await me(referrer.cookie)).json().referralCode as string;
    const leaving = await member('leaving', {
      firstName: 'Leona',
      lastName: 'Leaving',
      referralCode: code,
    });
    const leavingCode = (await me(leaving.cookie)).json().referralCode as string;
    const referred = await member('referred', { referralCode: leavingCode });
    // A reset mail and its token, so those are shown to go too.
    await t.app.inject({
      method: 'POST',
      url: '/auth/request-password-reset',
      headers: { origin: ORIGIN },
      payload: {
        email: leaving.keys.email,
        redirectTo: '/reset-password',
        gate: await passGate(t.app, 'reset'),
      },
    });
    const referrerBefore = await me(referrer.cookie);
    const referrerLedger = await db()
      .selectFrom('reward_ledger')
      .select(['caps', 'kind', 'level'])
      .where('user_id', '=', referrer.userId)
      .orderBy('id')
      .execute();
    const referredBefore = (await me(referred.cookie)).json().caps;

    const res = await deleteAccount(leaving.cookie, { authSecret: leaving.keys.authSecret });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(String(res.headers['set-cookie'])).toMatch(/crw\.session_token=; Max-Age=0/);

    // Every session of the member ended; they cannot sign in.
    expect((await me(leaving.cookie)).statusCode).toBe(401);
    expect((await me(leaving.otherCookie)).statusCode).toBe(401);
    expect((await signIn(t.app, leaving.keys.email, leaving.keys.authSecret)).statusCode).toBe(401);

    // The referrer keeps every CAP and the network count; the member they referred keeps theirs.
    const referrerAfter = await me(referrer.cookie);
    expect(referrerAfter.json().caps).toEqual(referrerBefore.json().caps);
    expect(referrerAfter.json().caps.referrals).toBe(100 + 50);
    expect(
      await db()
        .selectFrom('reward_ledger')
        .select(['caps', 'kind', 'level'])
        .where('user_id', '=', referrer.userId)
        .orderBy('id')
        .execute(),
    ).toEqual(referrerLedger);
    expect(JSON.parse((await exportOf(referrer.cookie)).body).referralCounts).toEqual({
      level1: 1,
      level2: 1,
      level3: 0,
    });
    expect((await me(referred.cookie)).json().caps).toEqual(referredBefore);

    // Nothing in any table names the member: id, e-mail, name, wallet or referral code.
    const tables = await sql<{ table_name: string }>`
      SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`.execute(
      db(),
    );
    const holding: string[] = [];
    for (const { table_name: table } of tables.rows) {
      for (const value of [
        leaving.userId,
        leaving.keys.email,
        'Leona',
        leaving.keys.address.toLowerCase(),
        leavingCode,
      ]) {
        const n = await sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM ${sql.table(table)} t WHERE strpos(lower(t::text), lower(${value})) > 0`.execute(
          db(),
        );
        if (n.rows[0]!.n > 0) holding.push(`${table}: ${value}`);
      }
    }
    expect(holding).toEqual([]);

    // The same e-mail can join again.
    const again = await cloneMemberKeys(base, leaving.keys.email);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/register',
          payload: await registerBody(t.app, again),
        })
      ).statusCode,
    ).toBe(201);
  });

  it('a second process forgets the ended sessions at once', async () => {
    const second = await buildTestApp({
      sameDatabaseAs: t,
      env: { PUBLIC_URL: ORIGIN, AUTH_RATE_LIMIT_PER_IP: '100000', SPONSOR_CLAIMS: 'false' },
    });
    try {
      const m = await member();
      const seen = await second.app.inject({
        method: 'GET',
        url: '/api/me',
        headers: { cookie: m.otherCookie },
      });
      expect(seen.statusCode).toBe(200); // remembered there now
      expect((await deleteAccount(m.cookie, { authSecret: m.keys.authSecret })).statusCode).toBe(
        200,
      );
      await expect
        .poll(
          async () =>
            (
              await second.app.inject({
                method: 'GET',
                url: '/api/me',
                headers: { cookie: m.otherCookie },
              })
            ).statusCode,
          { timeout: 2_000 },
        )
        .toBe(401);
    } finally {
      await second.close();
    }
  });
});
