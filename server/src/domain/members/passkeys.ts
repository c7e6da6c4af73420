// Passkeys (docs/decisions/0026-passkeys.md): adding one (after the password), signing in with one,
// and the wrapped copies of the wallet's key the member's browser made for them. WebAuthn's checks
// are @simplewebauthn/server's; the challenges are single-use rows (taking one deletes it), so an
// answer replayed finds nothing to answer. Nothing stored here lets the server sign for a member:
// a passkey's public key only checks signatures, and a wrapped copy opens only with the passkey's
// PRF output, which never leaves the browser (docs/security.md#passkeys).
import { randomUUID } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticatorTransportFuture,
} from '@simplewebauthn/server';
import {
  deviceName,
  passkeySignInRequest,
  type PasskeyAuthenticationResponse,
  type PasskeyCeremony,
  type PasskeyItem,
  type PasskeyRegistrationResponse,
  type WalletKeyCopy,
  type WrappedWalletKey,
} from '@crw/core';
import { sql, type Kysely } from 'kysely';
import { AppError } from '../../app-error';
import type { Config } from '../../config';
import type { DB } from '../../infra/db/schema';
import { trustedOrigins } from '../../infra/identity/auth';
import type { PasskeyVerdict } from '../../infra/identity/passkey-sign-in';
import { recordSecurityEvent } from './security-events';

/** Who the passkeys are for: the site's host name (WebAuthn's RP ID) and the origin a ceremony
 * must come from. That is the public URL's; outside production a request from another origin this
 * server trusts (the dev server, localhost beside 127.0.0.1) gets that origin's, as the browser
 * there can only make and use passkeys for its own host. */
export interface RelyingParty {
  rpID: string;
  rpName: string;
  origin: string;
}

export function passkeyParty(config: Config, requestOrigin?: string | null): RelyingParty {
  const trusted = trustedOrigins(config);
  const origin =
    requestOrigin && trusted.includes(requestOrigin)
      ? requestOrigin
      : new URL(config.publicUrl).origin;
  return { rpID: new URL(origin).hostname, rpName: 'REME Wallet', origin };
}

/** How long a ceremony may take, from the options to the answer. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** Passkeys one member may hold: enough for every device they own. */
export const PASSKEYS_PER_MEMBER = 10;

interface Client {
  userAgent: string | null | undefined;
  address: string | null | undefined;
}

async function storeChallenge(
  db: Kysely<DB>,
  purpose: 'register' | 'sign_in',
  userId: string | null,
  challenge: string,
): Promise<string> {
  const id = randomUUID();
  // Old ones go as new ones come: the table holds a few minutes of ceremonies.
  await db
    .deleteFrom('webauthn_challenges')
    .where('expires_at', '<', sql<Date>`now()`)
    .execute();
  await db
    .insertInto('webauthn_challenges')
    .values({
      id,
      purpose,
      user_id: userId,
      challenge,
      expires_at: new Date(Date.now() + CHALLENGE_TTL_MS),
    })
    .execute();
  return id;
}

/** The challenge `id` for this purpose (and member), used up; passkey_expired when it is gone. */
async function takeChallenge(
  db: Kysely<DB>,
  id: string,
  purpose: 'register' | 'sign_in',
  userId: string | null,
): Promise<string> {
  let query = db
    .deleteFrom('webauthn_challenges')
    .where('id', '=', id)
    .where('purpose', '=', purpose)
    .where('expires_at', '>', sql<Date>`now()`);
  query =
    userId === null ? query.where('user_id', 'is', null) : query.where('user_id', '=', userId);
  const row = await query.returning('challenge').executeTakeFirst();
  if (!row) throw new AppError(400, 'passkey_expired');
  return row.challenge;
}

/** Options for a new passkey of `userId` (the route has checked the password). */
export async function registrationOptions(
  db: Kysely<DB>,
  rp: RelyingParty,
  userId: string,
): Promise<PasskeyCeremony> {
  const member = await db
    .selectFrom('profiles')
    .select(['email', 'full_name'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!member) throw new AppError(401, 'unauthorized');
  const existing = await db
    .selectFrom('passkeys')
    .select(['credential_id', 'transports'])
    .where('user_id', '=', userId)
    .execute();
  if (existing.length >= PASSKEYS_PER_MEMBER)
    throw new AppError(
      409,
      'conflict',
      `You have ${PASSKEYS_PER_MEMBER} passkeys, the most an account can hold. Remove one first.`,
    );
  const options = await generateRegistrationOptions({
    rpName: rp.rpName,
    rpID: rp.rpID,
    userName: member.email,
    userDisplayName: member.full_name?.trim() || member.email,
    userID: new TextEncoder().encode(userId),
    attestationType: 'none',
    // A passkey the device already holds for this member is not made twice.
    excludeCredentials: existing.map((row) => ({
      id: row.credential_id,
      transports: row.transports as AuthenticatorTransportFuture[],
    })),
    // Discoverable (it signs in without the e-mail typed) and with the device's lock.
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    timeout: 120_000,
  });
  const challengeId = await storeChallenge(db, 'register', userId, options.challenge);
  return { challengeId, options: options as unknown as Record<string, unknown> };
}

const itemOf = (row: {
  id: string;
  credential_id: string;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
  synced: boolean;
  prf: boolean;
  unlocks_wallet: boolean;
}): PasskeyItem => ({
  id: row.id,
  credentialId: row.credential_id,
  name: row.name,
  createdAt: new Date(row.created_at).toISOString(),
  lastUsedAt: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
  synced: row.synced,
  prf: row.prf,
  unlocksWallet: row.unlocks_wallet,
});

/** Checks the browser's new passkey against the member's challenge and keeps it, with the
 * security event (and its mail) in the same transaction. */
export async function addPasskey(
  db: Kysely<DB>,
  rp: RelyingParty,
  publicUrl: string,
  userId: string,
  challengeId: string,
  response: PasskeyRegistrationResponse,
  client: Client,
): Promise<PasskeyItem> {
  const challenge = await takeChallenge(db, challengeId, 'register', userId);
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      // The schema bounded every field; the library reads the same JSON shape.
      response: response as Parameters<typeof verifyRegistrationResponse>[0]['response'],
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: true,
    });
  } catch {
    throw new AppError(400, 'passkey_failed');
  }
  if (!verified.verified) throw new AppError(400, 'passkey_failed');
  const { credential, credentialDeviceType } = verified.registrationInfo;
  return db.transaction().execute(async (trx) => {
    // One member's additions happen one at a time: the member's row is the lock for the count.
    await sql`SELECT id FROM "user" WHERE id = ${userId} FOR UPDATE`.execute(trx);
    const held = await trx
      .selectFrom('passkeys')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (held.n >= PASSKEYS_PER_MEMBER) throw new AppError(409, 'conflict');
    const row = await trx
      .insertInto('passkeys')
      .values({
        id: randomUUID(),
        user_id: userId,
        credential_id: credential.id,
        public_key: credential.publicKey,
        counter: credential.counter,
        transports: response.response.transports ?? [],
        synced: credentialDeviceType === 'multiDevice',
        prf: response.clientExtensionResults.prf?.enabled === true,
        name: deviceName(client.userAgent),
      })
      // A credential already kept (for anyone) is not taken again.
      .onConflict((oc) => oc.column('credential_id').doNothing())
      .returning(['id', 'credential_id', 'name', 'created_at', 'last_used_at', 'synced', 'prf'])
      .executeTakeFirst();
    if (!row) throw new AppError(409, 'passkey_failed');
    await recordSecurityEvent(trx, publicUrl, userId, 'passkey_added', client);
    return itemOf({ ...row, unlocks_wallet: false });
  });
}

/** The member's passkeys, oldest first. */
export async function listPasskeys(db: Kysely<DB>, userId: string): Promise<PasskeyItem[]> {
  const rows = await db
    .selectFrom('passkeys as p')
    .leftJoin('passkey_wallet_keys as k', 'k.passkey_id', 'p.id')
    .select([
      'p.id',
      'p.credential_id',
      'p.name',
      'p.created_at',
      'p.last_used_at',
      'p.synced',
      'p.prf',
      sql<boolean>`k.passkey_id IS NOT NULL`.as('unlocks_wallet'),
    ])
    .where('p.user_id', '=', userId)
    .orderBy('p.created_at')
    .orderBy('p.id')
    .execute();
  return rows.map(itemOf);
}

/** Renames one of the member's passkeys; false when it is not theirs (or gone). */
export async function renamePasskey(
  db: Kysely<DB>,
  userId: string,
  id: string,
  name: string,
): Promise<boolean> {
  const result = await db
    .updateTable('passkeys')
    .set({ name })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Removes one of the member's passkeys and its wrapped copy; false when it is not theirs. */
export async function removePasskey(db: Kysely<DB>, userId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('passkeys')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Keeps (or replaces) the wrapped copy of the wallet's key for one of the member's passkeys;
 * false when the passkey is not theirs. */
export async function storeWalletKey(
  db: Kysely<DB>,
  userId: string,
  passkeyId: string,
  wrapped: WrappedWalletKey,
): Promise<boolean> {
  const result = await sql`
    INSERT INTO passkey_wallet_keys (passkey_id, prf_salt, iv, ciphertext)
    SELECT p.id, ${wrapped.prfSalt}, ${wrapped.iv}, ${wrapped.ciphertext}
      FROM passkeys p WHERE p.id = ${passkeyId} AND p.user_id = ${userId}
    ON CONFLICT (passkey_id) DO UPDATE
      SET prf_salt = excluded.prf_salt, iv = excluded.iv, ciphertext = excluded.ciphertext,
          created_at = now()`.execute(db);
  return (result.numAffectedRows ?? 0n) > 0n;
}

/** The member's wrapped copies, for the browser to open one with its passkey. */
export async function walletKeysOf(db: Kysely<DB>, userId: string): Promise<WalletKeyCopy[]> {
  const rows = await db
    .selectFrom('passkey_wallet_keys as k')
    .innerJoin('passkeys as p', 'p.id', 'k.passkey_id')
    .select(['p.id as passkey_id', 'p.credential_id', 'k.prf_salt', 'k.iv', 'k.ciphertext'])
    .where('p.user_id', '=', userId)
    .orderBy('p.last_used_at', (ob) => ob.desc().nullsLast())
    .execute();
  return rows.map((row) => ({
    passkeyId: row.passkey_id,
    credentialId: row.credential_id,
    prfSalt: row.prf_salt,
    iv: row.iv,
    ciphertext: row.ciphertext,
  }));
}

/** Options for a sign-in with any passkey of this site (the browser offers the member's own). */
export async function signInOptions(db: Kysely<DB>, rp: RelyingParty): Promise<PasskeyCeremony> {
  const options = await generateAuthenticationOptions({
    rpID: rp.rpID,
    userVerification: 'required',
    timeout: 120_000,
  });
  const challengeId = await storeChallenge(db, 'sign_in', null, options.challenge);
  return { challengeId, options: options as unknown as Record<string, unknown> };
}

/** The member a passkey's answer signs in, after WebAuthn's checks: the challenge (once), the
 * origin and RP ID, the device's lock (user verification) and a counter that only goes up. */
export async function verifySignIn(
  db: Kysely<DB>,
  rp: RelyingParty,
  challengeId: string,
  response: PasskeyAuthenticationResponse,
): Promise<string> {
  const challenge = await takeChallenge(db, challengeId, 'sign_in', null);
  const passkey = await db
    .selectFrom('passkeys')
    .select(['id', 'user_id', 'credential_id', 'public_key', 'counter', 'transports'])
    .where('credential_id', '=', response.id)
    .executeTakeFirst();
  if (!passkey) throw new AppError(400, 'passkey_failed');
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response: response as Parameters<typeof verifyAuthenticationResponse>[0]['response'],
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: true,
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(passkey.public_key),
        counter: Number(passkey.counter),
        transports: passkey.transports as AuthenticatorTransportFuture[],
      },
    });
  } catch {
    throw new AppError(400, 'passkey_failed');
  }
  if (!verified.verified) throw new AppError(400, 'passkey_failed');
  // The counter moves only forward: of two answers that raced with one count, one signs in.
  const moved = await db
    .updateTable('passkeys')
    .set({ counter: verified.authenticationInfo.newCounter, last_used_at: new Date() })
    .where('id', '=', passkey.id)
    .where(sql<boolean>`counter = ${passkey.counter}::bigint`)
    .executeTakeFirst();
  if (moved.numUpdatedRows === 0n) throw new AppError(400, 'passkey_failed');
  return passkey.user_id;
}

/** The sign-in endpoint's answer to a passkey (infra/identity/passkey-sign-in.ts): the member, or
 * why not. Its body was checked by the route; it is checked again here, where it is read. */
export async function passkeyVerdict(
  db: Kysely<DB>,
  rp: RelyingParty,
  body: unknown,
): Promise<PasskeyVerdict> {
  const parsed = passkeySignInRequest.safeParse(body);
  if (!parsed.success) return { refused: 'failed' };
  try {
    return { userId: await verifySignIn(db, rp, parsed.data.challengeId, parsed.data.response) };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { refused: error.code === 'passkey_expired' ? 'expired' : 'failed' };
  }
}
