// The password asked again of a signed-in member (changing the password, deleting the account,
// adding or removing a passkey): their current auth secret, counted per member like sign-in
// (attempt-limits.ts), so a session alone cannot guess it.
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { AppError } from '../../app-error';
import type { Config } from '../../config';
import type { DB } from '../../infra/db/schema';
import { verifySecret } from '../../infra/identity/password-hash';
import { credentialOf } from '../../domain/members/lifecycle';
import { reauthenticationLimits, type ReauthLimits, type SignInOutcome } from './attempt-limits';

export interface PasswordCheck {
  /** The member's password credential when `authSecret` is theirs, else 403 wrong_password
   * (counted: 429 past the limit). */
  reauthenticate(
    request: FastifyRequest,
    userId: string,
    authSecret: string,
  ): Promise<{ id: string; password: string }>;
  limits: ReauthLimits;
}

export function passwordCheck(config: Config, db: Kysely<DB>): PasswordCheck {
  const limits = reauthenticationLimits(config, db);
  return {
    limits,
    async reauthenticate(request, userId, authSecret) {
      await limits.hold(request, userId);
      let outcome: SignInOutcome = 'undecided';
      try {
        const credential = await credentialOf(db, userId);
        if (
          !credential ||
          !(await verifySecret({ hash: credential.password, password: authSecret }))
        ) {
          outcome = 'refused';
          throw new AppError(403, 'wrong_password');
        }
        outcome = 'succeeded';
        return credential;
      } finally {
        await limits.settle(userId, outcome);
      }
    },
  };
}
