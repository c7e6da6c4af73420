// Sign-up in one transaction: the auth user and credential (better-auth's tables), the profile,
// the wallet, the distributions row and the confirmation mail — all of them, or none.
import MailChecker from 'mailchecker';
import { randomBytes, randomUUID } from 'node:crypto';
import { createEmailVerificationToken } from 'better-auth/api';
import { sql, type Kysely } from 'kysely';
import {
  invalidReferralCodeMessage,
  newReferralCode,
  readReferralCode,
  type RegisterRequest,
} from '@crw/core';
import { AppError } from '../../app-error';
import { CONFIRMED_CALLBACK, EMAIL_TOKEN_EXPIRES_IN_S } from '../../infra/identity/auth';
import { hashSecret } from '../../infra/identity/password-hash';
import type { DB } from '../../infra/db/schema';
import { enqueueMail } from '../../infra/mail/outbox';
import { confirmationMail } from '../../infra/mail/templates';
import type { SignupSignals } from './sign-up-signals';

const UNIQUE_VIOLATION = '23505';

export interface Registration {
  email: string;
  authSecret: string;
  username?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
  wallet: RegisterRequest['wallet'];
  referralCode?: string | undefined;
  /** What the sign-up looked like, compared with others while its rewards are held. */
  signals?: SignupSignals | undefined;
}

/** The referrer a code names: unknown, over-long or malformed codes are refused, naming the code. */
async function findReferrer(
  trx: Kysely<DB>,
  raw: string | undefined,
): Promise<{ id: string; code: string } | null> {
  const input = readReferralCode(raw);
  if (input.kind === 'none') return null;
  const referrer =
    input.kind === 'code'
      ? await trx
          .selectFrom('profiles')
          .select('id')
          .where('referral_code', '=', input.code)
          .executeTakeFirst()
      : undefined;
  if (!referrer || input.kind !== 'code')
    throw new AppError(400, 'invalid_referral_code', invalidReferralCodeMessage(raw!.trim()));
  return { id: referrer.id, code: input.code };
}

/** Inserts the profile with a fresh unique referral code (a collision just draws again). */
async function insertProfile(
  trx: Kysely<DB>,
  profile: {
    id: string;
    username: string;
    full_name: string;
    email: string;
    referred_by: string | null;
    referred_with_code: string | null;
  },
) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const inserted = await trx
      .insertInto('profiles')
      .values({ ...profile, referral_code: newReferralCode(randomBytes(8)) })
      .onConflict((oc) => oc.column('referral_code').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) return;
  }
  throw new Error('could not draw a unique referral code');
}

const THROWAWAY_DOMAINS = MailChecker.blacklist();

/** Refuses an address of a throwaway mail service (mailchecker's list, updated with the package;
 * subdomains of a listed domain too): accounts there cost nothing to make by the hundred. */
export function refuseDisposable(email: string): void {
  const labels = email
    .slice(email.lastIndexOf('@') + 1)
    .toLowerCase()
    .split('.');
  for (let i = 0; i < labels.length - 1; i++)
    if (THROWAWAY_DOMAINS.has(labels.slice(i).join('.')))
      throw new AppError(400, 'disposable_email');
}

/** Whether a confirmed account has this address, or the same mailbox spelled another way (Gmail's
 * dots, a +tag: canonical_email); an unconfirmed one is replaced by a new sign-up. */
export async function emailTaken(db: Kysely<DB>, email: string): Promise<boolean> {
  const found = await sql<{
    id: string;
  }>`SELECT id FROM "user"
       WHERE canonical_email(email) = canonical_email(${email}) AND "emailVerified"`.execute(db);
  return found.rows.length > 0;
}

export interface RegistrationSettings {
  signingKey: string;
  publicUrl: string;
  /** When false the address counts as confirmed at once and no confirmation mail is sent. */
  requireConfirmation: boolean;
}

/** The confirmation mail with a fresh link (better-auth's verify-email token, bound to the member). */
export async function confirmationMailFor(
  site: { signingKey: string; publicUrl: string },
  member: { userId: string; email: string; wallet: string },
) {
  const token = await createEmailVerificationToken(
    site.signingKey,
    member.email,
    undefined,
    EMAIL_TOKEN_EXPIRES_IN_S,
    { userId: member.userId },
  );
  const url = `${site.publicUrl}/auth/verify-email?token=${token}&callbackURL=${encodeURIComponent(CONFIRMED_CALLBACK)}`;
  return confirmationMail(member.email, url, member.wallet);
}

export async function registerMember(
  db: Kysely<DB>,
  settings: RegistrationSettings,
  input: Registration,
): Promise<string> {
  const { signingKey, publicUrl, requireConfirmation } = settings;
  refuseDisposable(input.email);
  const passwordHash = await hashSecret(input.authSecret);
  const userId = randomUUID();
  const username = input.username?.trim() || input.email.split('@')[0] || input.email;
  const fullName = [input.firstName, input.lastName]
    .map((n) => n?.trim() ?? '')
    .filter(Boolean)
    .join(' ');
  try {
    await db.transaction().execute(async (trx) => {
      // An unconfirmed registration never blocks the address's owner: registering again replaces it
      // (its mailed link names its user id, so that link stops working).
      const existing = await sql<{ id: string }>`
        SELECT id FROM "user" WHERE email = ${input.email} FOR UPDATE`.execute(trx);
      const previous = existing.rows[0];
      // A confirmed account of this mailbox, under this spelling or another (Gmail's dots, a +tag).
      if (await emailTaken(trx, input.email)) throw new AppError(409, 'email_taken');
      if (previous) await sql`DELETE FROM "user" WHERE id = ${previous.id}`.execute(trx);
      await sql`INSERT INTO "user" (id, name, email, "emailVerified", "createdAt", "updatedAt")
                VALUES (${userId}, ${fullName}, ${input.email}, ${!requireConfirmation}, now(), now())`.execute(
        trx,
      );
      await sql`INSERT INTO account (id, "accountId", "providerId", "userId", password, "createdAt", "updatedAt")
                VALUES (${randomUUID()}, ${userId}, 'credential', ${userId}, ${passwordHash}, now(), now())`.execute(
        trx,
      );
      if (input.signals)
        await trx
          .insertInto('signup_signals')
          .values({
            user_id: userId,
            network: input.signals.network,
            device_class: input.signals.deviceClass,
          })
          .execute();
      const referrer = await findReferrer(trx, input.referralCode);
      await insertProfile(trx, {
        id: userId,
        username,
        full_name: fullName,
        email: input.email,
        referred_by: referrer?.id ?? null,
        referred_with_code: referrer?.code ?? null,
      });
      await trx
        .insertInto('user_wallets')
        .values({
          user_id: userId,
          wallet_address: input.wallet.address.toLowerCase(),
          encrypted_wallet: input.wallet.keystore,
        })
        .execute();
      await trx.insertInto('user_token_distributions').values({ user_id: userId }).execute();
      if (!requireConfirmation) {
        // Counts as confirmed now: the signup bonus and the referral chain are credited at once.
        await creditConfirmedMember(trx, userId);
        return;
      }
      await enqueueMail(
        trx,
        await confirmationMailFor(
          { signingKey, publicUrl },
          { userId, email: input.email, wallet: input.wallet.address },
        ),
      );
    });
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
      const detail = String((error as { detail?: string; constraint?: string }).constraint ?? '');
      throw detail.includes('wallet')
        ? new AppError(409, 'wallet_taken')
        : new AppError(409, 'email_taken');
    }
    throw error;
  }
  return userId;
}

/** Credits a member whose address is confirmed (the sign-up reward and their referrers'); a second
 * call credits nothing, since each credit has a unique source key. */
export async function creditConfirmedMember(db: Kysely<DB>, userId: string): Promise<void> {
  await sql`SELECT credit_confirmed_member(${userId})`.execute(db);
}
