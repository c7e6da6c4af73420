// Factories for members: a real ethers wallet and keystore, the derived auth secret, and the
// register / confirm / sign-in calls the browser makes (passing the sign-up gate as it does). Shared
// by server tests, e2e fixtures and the benchmarks.
import {
  deriveAuthSecret,
  walletProofMessage,
  type WalletChallenge,
  type WalletProof,
  type WalletProofPurpose,
} from '@crw/core';
import { Wallet, hexlify, randomBytes } from 'ethers';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../infra/db/schema';
import { passGate } from './signup-gate';

export const ORIGIN = 'http://localhost:3000';

export interface MemberKeys {
  email: string;
  password: string;
  authSecret: string;
  address: string;
  privateKey: string;
  keystore: string;
}

let counter = 0;
export function uniqueEmail(prefix = 'member'): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}.${counter}@example.test`;
}

/** A wallet made as the browser makes it: random key, keystore with scrypt N=131072, r=8, p=1. */
export async function makeMemberKeys(
  overrides: { email?: string; password?: string } = {},
): Promise<MemberKeys> {
  const email = overrides.email ?? uniqueEmail();
  const password = overrides.password ?? 'correct horse battery';
  const wallet = Wallet.createRandom();
  const plain = new Wallet(wallet.privateKey);
  const keystore = await plain.encrypt(password);
  return {
    email,
    password,
    authSecret: await deriveAuthSecret(password, email),
    address: plain.address,
    privateKey: plain.privateKey,
    keystore,
  };
}

/** The app in process (a Fastify instance) or a running server's base URL. */
export type AppTarget = FastifyInstance | string;

/** Asks the app for a wallet challenge (with the member's cookie for save-wallet). */
export async function walletChallenge(
  target: AppTarget,
  purpose: WalletProofPurpose,
  cookie?: string,
): Promise<WalletChallenge> {
  // A running server trusts its own origin (its port), in-process apps the default PUBLIC_URL's.
  const origin = typeof target === 'string' ? new URL(target).origin : ORIGIN;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    origin,
    ...(cookie ? { cookie } : {}),
  };
  if (typeof target === 'string') {
    const res = await fetch(`${target}/api/wallet/challenge`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ purpose }),
    });
    if (res.status !== 200) throw new Error(`challenge: ${res.status} ${await res.text()}`);
    return (await res.json()) as WalletChallenge;
  }
  const res = await target.inject({
    method: 'POST',
    url: '/api/wallet/challenge',
    headers,
    payload: { purpose },
  });
  if (res.statusCode !== 200) throw new Error(`challenge: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** What the browser's wallet worker does: signs the challenge's EIP-4361 message with the key. */
export async function signChallenge(
  challenge: WalletChallenge,
  privateKey: string,
): Promise<WalletProof> {
  const wallet = new Wallet(privateKey);
  return {
    nonce: challenge.nonce,
    signature: await wallet.signMessage(walletProofMessage(challenge, wallet.address)),
  };
}

export async function walletProof(
  target: AppTarget,
  keys: MemberKeys,
  purpose: WalletProofPurpose = 'register',
  cookie?: string,
): Promise<WalletProof> {
  return signChallenge(await walletChallenge(target, purpose, cookie), keys.privateKey);
}

/** The body of POST /api/register, with a fresh wallet proof and sign-up gate solution from `target`. */
export async function registerBody(
  target: AppTarget,
  keys: MemberKeys,
  extra: Record<string, unknown> = {},
) {
  return {
    email: keys.email,
    authSecret: keys.authSecret,
    firstName: 'Ada',
    lastName: 'Lovelace',
    wallet: {
      address: keys.address,
      keystore: keys.keystore,
      proof: await walletProof(target, keys),
    },
    gate: await passGate(target, 'register'),
    ...extra,
  };
}

export function cookieOf(setCookie: string | string[] | undefined): string {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return all.map((c) => c.split(';')[0]).join('; ');
}

export async function signIn(app: FastifyInstance, email: string, authSecret: string) {
  return app.inject({
    method: 'POST',
    url: '/auth/sign-in/email',
    headers: { origin: ORIGIN },
    payload: { email, password: authSecret },
  });
}

/**
 * For tests about referrals and balances, not wallets: another member with a fresh random key whose
 * keystore is a copy of `base` relabelled with the new address (the server checks its shape, never
 * decrypts it), which saves a second of scrypt per member. The key still signs the wallet proof.
 */
export async function cloneMemberKeys(
  base: MemberKeys,
  email = uniqueEmail(),
): Promise<MemberKeys> {
  // A bare key, not Wallet.createRandom's mnemonic and HD derivation (about 20 ms of CPU each).
  const wallet = new Wallet(hexlify(randomBytes(32)));
  const keystore = JSON.stringify({
    ...(JSON.parse(base.keystore) as object),
    address: wallet.address.slice(2).toLowerCase(),
  });
  return {
    ...base,
    email,
    address: wallet.address,
    privateKey: wallet.privateKey,
    keystore,
    authSecret: await deriveAuthSecret(base.password, email, 1000),
  };
}

/** Registers a member (with a referral code when given) and opens their mailed confirmation link. */
export async function joinAndConfirm(
  app: FastifyInstance,
  db: Kysely<DB>,
  keys: MemberKeys,
  referralCode?: string,
): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/register',
    payload: await registerBody(app, keys, referralCode ? { referralCode } : {}),
  });
  if (res.statusCode !== 201) throw new Error(`register: ${res.statusCode} ${res.body}`);
  await openConfirmationLink(app, db, keys.email);
  return res.json().userId as string;
}

/** Opens the confirmation link last mailed to `email` (from `remoteAddress` when given); the
 * session cookie it signs the member in with. */
export async function openConfirmationLink(
  app: FastifyInstance,
  db: Kysely<DB>,
  email: string,
  remoteAddress?: string,
): Promise<string> {
  const { text_body: text } = await db
    .selectFrom('mail_outbox')
    .select('text_body')
    .where('to_address', '=', email)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const link = new URL(/https?:\/\/\S+\/auth\/verify-email\S*/.exec(text)![0]);
  const confirmed = await app.inject({
    method: 'GET',
    url: `${link.pathname}${link.search}`,
    ...(remoteAddress ? { remoteAddress } : {}),
  });
  if (confirmed.statusCode !== 302) throw new Error(`confirm: ${confirmed.statusCode}`);
  return cookieOf(confirmed.headers['set-cookie']);
}

export async function signedInCookie(app: FastifyInstance, keys: MemberKeys): Promise<string> {
  const res = await signIn(app, keys.email, keys.authSecret);
  if (res.statusCode !== 200) throw new Error(`sign-in: ${res.statusCode} ${res.body}`);
  return cookieOf(res.headers['set-cookie']);
}

/** A confirmed, signed-in member: their id, keys, session cookie and own referral code. */
export interface NamedMember {
  id: string;
  keys: MemberKeys;
  cookie: string;
  code: string;
}

/** A confirmed, signed-in member with `firstName` (joined through `referralCode` when given). */
export async function joinNamed(
  app: FastifyInstance,
  db: Kysely<DB>,
  base: MemberKeys,
  firstName: string,
  referralCode?: string,
): Promise<NamedMember> {
  const keys = await cloneMemberKeys(base);
  const res = await app.inject({
    method: 'POST',
    url: '/api/register',
    payload: await registerBody(app, keys, {
      firstName,
      ...(referralCode ? { referralCode } : {}),
    }),
  });
  if (res.statusCode !== 201) throw new Error(`register: ${res.statusCode} ${res.body}`);
  await openConfirmationLink(app, db, keys.email);
  const id = res.json().userId as string;
  const { referral_code } = await db
    .selectFrom('profiles')
    .select('referral_code')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { id, keys, cookie: await signedInCookie(app, keys), code: referral_code! };
}
