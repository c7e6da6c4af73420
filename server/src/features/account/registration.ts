// Sign-up in one transaction: the auth user and credential (better-auth's tables), the profile,
// the wallet, the distributions row and the confirmation mail — all of them, or none.
import { randomUUID } from 'node:crypto';
import { createEmailVerificationToken } from 'better-auth/api';
import { sql, type Kysely } from 'kysely';
import type { RegisterRequest } from '@crw/core';
import { AppError } from '../../app-error';
import { CONFIRMED_CALLBACK, EMAIL_TOKEN_EXPIRES_IN_S } from '../../auth/auth';
import { hashSecret } from '../../auth/password-hash';
import type { DB } from '../../db/schema';
import { enqueueMail } from '../../mail/outbox';
import { confirmationMail } from '../../mail/templates';

const UNIQUE_VIOLATION = '23505';

export interface Registration {
  email: string;
  authSecret: string;
  username?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
  wallet: RegisterRequest['wallet'];
}

export interface RegistrationSettings {
  signingKey: string;
  publicUrl: string;
  /** When false the address counts as confirmed at once and no confirmation mail is sent. */
  requireConfirmation: boolean;
}

export async function registerMember(db: Kysely<DB>, settings: RegistrationSettings, input: Registration): Promise<string> {
  const { signingKey, publicUrl, requireConfirmation } = settings;
  const passwordHash = await hashSecret(input.authSecret);
  const userId = randomUUID();
  const username = input.username?.trim() || input.email.split('@')[0] || input.email;
  const fullName = [input.firstName, input.lastName].map((n) => n?.trim() ?? '').filter(Boolean).join(' ');
  try {
    await db.transaction().execute(async (trx) => {
      const existing = await sql<{ id: string }>`SELECT id FROM "user" WHERE email = ${input.email}`.execute(trx);
      if (existing.rows.length > 0) throw new AppError(409, 'email_taken');
      await sql`INSERT INTO "user" (id, name, email, "emailVerified", "createdAt", "updatedAt")
                VALUES (${userId}, ${fullName}, ${input.email}, ${!requireConfirmation}, now(), now())`.execute(trx);
      await sql`INSERT INTO account (id, "accountId", "providerId", "userId", password, "createdAt", "updatedAt")
                VALUES (${randomUUID()}, ${userId}, 'credential', ${userId}, ${passwordHash}, now(), now())`.execute(trx);
      await trx.insertInto('profiles').values({ id: userId, username, full_name: fullName, email: input.email }).execute();
      await trx
        .insertInto('user_wallets')
        .values({ user_id: userId, wallet_address: input.wallet.address, encrypted_wallet: input.wallet.keystore })
        .execute();
      await trx.insertInto('user_token_distributions').values({ user_id: userId }).execute();
      if (!requireConfirmation) return;
      const token = await createEmailVerificationToken(signingKey, input.email, undefined, EMAIL_TOKEN_EXPIRES_IN_S, { userId });
      const url = `${publicUrl}/auth/verify-email?token=${token}&callbackURL=${encodeURIComponent(CONFIRMED_CALLBACK)}`;
      await enqueueMail(trx, confirmationMail(input.email, url));
    });
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
      const detail = String((error as { detail?: string; constraint?: string }).constraint ?? '');
      throw detail.includes('wallet') ? new AppError(409, 'invalid_keystore') : new AppError(409, 'email_taken');
    }
    throw error;
  }
  return userId;
}
