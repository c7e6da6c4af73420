// The hand-off codes' storage: a code is kept only as its SHA-256, for HANDOFF_CODE_TTL_S, once.
import { createHash } from 'node:crypto';
import { HANDOFF_CODE_TTL_S } from '@crw/core';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../infra/db/schema';

const hashOf = (code: string) => createHash('sha256').update(code).digest('hex');

/** Stores a new code for the member (and forgets their expired ones). */
export async function storeHandoffCode(db: Kysely<DB>, userId: string, code: string) {
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('handoff_codes')
      .where('user_id', '=', userId)
      .where('expires_at', '<', sql<Date>`now()`)
      .execute();
    await trx
      .insertInto('handoff_codes')
      .values({
        code_hash: hashOf(code),
        user_id: userId,
        expires_at: sql<Date>`now() + make_interval(secs => ${HANDOFF_CODE_TTL_S})`,
      })
      .execute();
  });
}

/** The identity behind an unused, unexpired code, which this marks used: one statement marks the
 * code, so two redeemers racing cannot both win. Undefined for any other code. */
export async function redeemHandoffCode(db: Kysely<DB>, code: string) {
  const redeemed = await db
    .updateTable('handoff_codes')
    .set({ used_at: sql<Date>`now()` })
    .where('code_hash', '=', hashOf(code))
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('user_id')
    .executeTakeFirst();
  if (!redeemed) return undefined;
  return db
    .selectFrom('profiles')
    .leftJoin('user_wallets', 'user_wallets.user_id', 'profiles.id')
    .select([
      'profiles.id',
      'profiles.email',
      'profiles.username',
      'profiles.full_name',
      'user_wallets.wallet_address',
    ])
    .where('profiles.id', '=', redeemed.user_id)
    .executeTakeFirstOrThrow();
}
