// Identity bound to the wallet (docs/security.md): a wallet is accepted only with its key's
// signature over a single-use challenge, addresses are unique in one canonical form, and an
// unconfirmed registration never blocks (or hijacks) the e-mail address's owner.
import { shortAddress } from '@crw/core';
import { Wallet } from 'ethers';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cloneMemberKeys,
  cookieOf,
  joinAndConfirm,
  makeMemberKeys,
  ORIGIN,
  registerBody,
  signChallenge,
  signedInCookie,
  uniqueEmail,
  walletChallenge,
  walletProof,
  type MemberKeys,
} from './helpers/members';
import { passGate } from '../src/testing/signup-gate';
import { copyFileSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrateAuthTables } from '../src/infra/identity/auth';
import { migrate, migrationsDir } from '../src/infra/db/migrate';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { openTestDatabase, testDbKind } from './helpers/test-database';

let t: TestApp;
let victim: MemberKeys;
let attacker: MemberKeys;

const register = (body: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/register', payload: body as Record<string, unknown> });
const db = () => t.services.database.db;
const mailsTo = (to: string) =>
  db()
    .selectFrom('mail_outbox')
    .select(['text_body'])
    .where('to_address', '=', to)
    .orderBy('id', 'asc')
    .execute();
const confirmLink = (text: string) =>
  new URL(/https?:\/\/\S+\/auth\/verify-email\S*/.exec(text)![0]);

beforeAll(async () => {
  t = await buildTestApp({ chain: false, env: { PUBLIC_URL: ORIGIN } });
  victim = await makeMemberKeys();
  attacker = await cloneMemberKeys(victim);
}, 60_000);
afterAll(() => t?.close());

describe(`proof of possession at sign-up (${testDbKind})`, () => {
  it('refuses a wallet without a proof', async () => {
    const body = await registerBody(t.app, await cloneMemberKeys(victim));
    const { proof: _dropped, ...wallet } = body.wallet;
    const res = await register({ ...body, wallet });
    expect(res.statusCode).toBe(400);
  });

  it('refuses a lowercase copy of another member’s address signed by a different key (the audit’s attack)', async () => {
    const owner = await cloneMemberKeys(victim);
    await joinAndConfirm(t.app, db(), owner);
    const thief = await cloneMemberKeys(victim);
    const fakeKeystore = JSON.stringify({
      ...(JSON.parse(owner.keystore) as object),
      address: owner.address.slice(2).toLowerCase(),
    });
    const proof = await signChallenge(await walletChallenge(t.app, 'register'), thief.privateKey);
    const res = await register({
      ...(await registerBody(t.app, thief)),
      wallet: { address: owner.address.toLowerCase(), keystore: fakeKeystore, proof },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'invalid_wallet_proof',
      message: 'Your wallet could not be confirmed. Please try again.',
    });
    expect(
      await db().selectFrom('profiles').select('id').where('email', '=', thief.email).execute(),
    ).toEqual([]);
  });

  it('refuses the same address in another letter case even from its key holder (one canonical form)', async () => {
    const owner = await cloneMemberKeys(victim);
    await joinAndConfirm(t.app, db(), owner);
    const second = {
      ...(await cloneMemberKeys(victim)),
      address: owner.address.toLowerCase(),
      privateKey: owner.privateKey,
      keystore: owner.keystore,
    };
    const res = await register(await registerBody(t.app, second));
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('wallet_taken');
    const stored = await db()
      .selectFrom('user_wallets')
      .select('wallet_address')
      .where('wallet_address', '=', owner.address.toLowerCase())
      .execute();
    expect(stored).toHaveLength(1);
    await expect(
      sql`UPDATE user_wallets SET wallet_address = upper(wallet_address) WHERE wallet_address = ${owner.address.toLowerCase()}`.execute(
        db(),
      ),
    ).rejects.toThrow();
  });

  it('uses a challenge once: a replayed proof is refused', async () => {
    const member = await cloneMemberKeys(victim);
    const body = await registerBody(t.app, member);
    expect((await register(body)).statusCode).toBe(201);
    // A fresh gate solution, so that the wallet proof is what is tried again.
    const again = await register({
      ...body,
      email: uniqueEmail('replay'),
      gate: await passGate(t.app, 'register'),
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('invalid_wallet_proof');
  });

  it('refuses an expired challenge, an unknown nonce and a save-wallet challenge at sign-up', async () => {
    const member = await cloneMemberKeys(victim);
    const expired = await walletProof(t.app, member);
    await db()
      .updateTable('wallet_challenges')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('nonce', '=', expired.nonce)
      .execute();
    const unknown = { ...(await walletProof(t.app, member)), nonce: 'f'.repeat(32) };
    for (const proof of [expired, unknown]) {
      const body = await registerBody(t.app, member);
      const res = await register({ ...body, wallet: { ...body.wallet, proof } });
      expect(res.json().code).toBe('invalid_wallet_proof');
    }
    const confirmed = await cloneMemberKeys(victim);
    await joinAndConfirm(t.app, db(), confirmed);
    const cookie = await signedInCookie(t.app, confirmed);
    const saveWalletProof = await signChallenge(
      await walletChallenge(t.app, 'save-wallet', cookie),
      member.privateKey,
    );
    const body = await registerBody(t.app, member);
    const res = await register({ ...body, wallet: { ...body.wallet, proof: saveWalletProof } });
    expect(res.json().code).toBe('invalid_wallet_proof');
    expect((await register(await registerBody(t.app, member))).statusCode).toBe(201);
  });

  it('gives save-wallet challenges only to a signed-in member', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/wallet/challenge',
      headers: { origin: ORIGIN },
      payload: { purpose: 'save-wallet' },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe(`saving a re-encrypted wallet needs its key (${testDbKind})`, () => {
  let owner: MemberKeys;
  let cookie: string;
  beforeAll(async () => {
    owner = await cloneMemberKeys(victim);
    await joinAndConfirm(t.app, db(), owner);
    cookie = await signedInCookie(t.app, owner);
  });
  const save = (payload: unknown, headers: Record<string, string> = { cookie, origin: ORIGIN }) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/wallet',
      headers,
      payload: payload as Record<string, unknown>,
    });

  it('accepts the member’s own wallet with a proof from their session', async () => {
    const proof = await walletProof(t.app, owner, 'save-wallet', cookie);
    expect(
      (await save({ address: owner.address, keystore: owner.keystore, proof })).statusCode,
    ).toBe(200);
  });

  it('refuses a keystore without the key’s signature, or signed by another key', async () => {
    const other = await cloneMemberKeys(victim);
    const proof = await signChallenge(
      await walletChallenge(t.app, 'save-wallet', cookie),
      other.privateKey,
    );
    const res = await save({ address: owner.address, keystore: owner.keystore, proof });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_wallet_proof');
    expect((await save({ address: owner.address, keystore: owner.keystore })).statusCode).toBe(400);
  });

  it('refuses a challenge issued to another member’s session', async () => {
    const other = await cloneMemberKeys(victim);
    await joinAndConfirm(t.app, db(), other);
    const otherCookie = await signedInCookie(t.app, other);
    const proof = await signChallenge(
      await walletChallenge(t.app, 'save-wallet', otherCookie),
      owner.privateKey,
    );
    expect(
      (await save({ address: owner.address, keystore: owner.keystore, proof })).json().code,
    ).toBe('invalid_wallet_proof');
  });
});

describe(`account pre-hijacking (${testDbKind})`, () => {
  it('lets the address’s owner register over an unconfirmed registration, whose link then stops working', async () => {
    const email = uniqueEmail('victim');
    const mine = { ...(await cloneMemberKeys(victim)), email };
    const theirs = { ...(await cloneMemberKeys(attacker)), email };

    expect((await register(await registerBody(t.app, theirs))).statusCode).toBe(201);
    const attackerMail = (await mailsTo(email))[0]!.text_body;
    expect(attackerMail).toContain(shortAddress(new Wallet(theirs.privateKey).address));
    expect(attackerMail).toMatch(/Not you, or not your wallet\? Do not open the link/);

    const mineRes = await register(await registerBody(t.app, mine));
    expect(mineRes.statusCode).toBe(201);
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.text_body).toContain(shortAddress(mine.address));

    // The attacker's link (the first mail) no longer confirms anything.
    const stale = confirmLink(attackerMail);
    const staleRes = await t.app.inject({ method: 'GET', url: `${stale.pathname}${stale.search}` });
    expect(String(staleRes.headers.location)).toMatch(/error=/);
    expect(staleRes.headers['set-cookie']).toBeUndefined();

    const link = confirmLink(mails[1]!.text_body);
    const confirmed = await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(confirmed.statusCode).toBe(302);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { cookie: cookieOf(confirmed.headers['set-cookie']) },
    });
    expect(me.json().wallet.address).toBe(mine.address);
    const wallets = await db()
      .selectFrom('user_wallets')
      .select('wallet_address')
      .where('wallet_address', 'in', [mine.address.toLowerCase(), theirs.address.toLowerCase()])
      .execute();
    expect(wallets.map((w) => w.wallet_address)).toEqual([mine.address.toLowerCase()]);
  });

  it('still refuses to register over a confirmed account', async () => {
    const owner = await cloneMemberKeys(victim);
    await joinAndConfirm(t.app, db(), owner);
    const res = await register(
      await registerBody(t.app, { ...(await cloneMemberKeys(attacker)), email: owner.email }),
    );
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('email_taken');
  });
});

describe(`addresses are stored lowercase and shown checksummed (${testDbKind})`, () => {
  it('keeps the proven address in one form and answers it checksummed', async () => {
    const owner = await cloneMemberKeys(victim);
    await joinAndConfirm(t.app, db(), owner);
    const row = await db()
      .selectFrom('user_wallets')
      .innerJoin('profiles', 'profiles.id', 'user_wallets.user_id')
      .select('wallet_address')
      .where('profiles.email', '=', owner.email)
      .executeTakeFirstOrThrow();
    expect(row.wallet_address).toBe(owner.address.toLowerCase());
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { cookie: await signedInCookie(t.app, owner) },
    });
    expect(me.json().wallet.address).toBe(owner.address);
  });
});

describe(`the canonical-address migration (${testDbKind})`, () => {
  /** A database as it was before 0006, holding `addresses`; then the real migrations. */
  async function migrateWith(addresses: string[]) {
    const before = mkdtempSync(path.join(tmpdir(), 'crw-mig-'));
    for (const file of readdirSync(migrationsDir).filter((f) => f < '0006'))
      copyFileSync(path.join(migrationsDir, file), path.join(before, file));
    const test = await openTestDatabase({ migrated: false });
    await migrateAuthTables(test.database);
    await migrate(test.database, before);
    for (const [i, address] of addresses.entries()) {
      const id = `old-${i}`;
      await sql`INSERT INTO "user" (id, name, email, "emailVerified", "createdAt", "updatedAt") VALUES (${id}, '', ${`${id}@example.test`}, true, now(), now())`.execute(
        test.database.db,
      );
      await sql`INSERT INTO profiles (id, username, email) VALUES (${id}, ${id}, ${`${id}@example.test`})`.execute(
        test.database.db,
      );
      await sql`INSERT INTO user_wallets (user_id, wallet_address, encrypted_wallet) VALUES (${id}, ${address}, '{}')`.execute(
        test.database.db,
      );
    }
    return test;
  }

  it('lowercases existing addresses', async () => {
    const address = Wallet.createRandom().address;
    const test = await migrateWith([address]);
    try {
      await migrate(test.database);
      const rows = await test.database.db
        .selectFrom('user_wallets')
        .select('wallet_address')
        .execute();
      expect(rows).toEqual([{ wallet_address: address.toLowerCase() }]);
    } finally {
      await test.drop();
    }
  });

  it('stops and names addresses registered twice in different letter cases', async () => {
    const address = Wallet.createRandom().address;
    const test = await migrateWith([address, address.toLowerCase()]);
    try {
      await expect(migrate(test.database)).rejects.toThrow(
        new RegExp(`0006_wallet_proof.sql.*${address.toLowerCase()} \\(2 members\\)`),
      );
    } finally {
      await test.drop();
    }
  });
});
