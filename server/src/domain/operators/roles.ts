// The operator role: granted to a confirmed member, revoked, each time said once. Revoking it
// signs the member out everywhere (docs/security.md#the-operator-console).
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../infra/db/schema';

export type RoleChange =
  | { outcome: 'unknown_member' | 'unconfirmed' }
  | {
      outcome: 'done';
      userId: string;
      email: string;
      operator: boolean;
      changed: boolean;
      /** The tokens of the sessions the revocation ended (the caller forgets them at once). */
      endedSessions: string[];
    };

export async function setOperatorRole(
  db: Kysely<DB>,
  email: string,
  operator: boolean,
): Promise<RoleChange> {
  const member = (
    await sql<{ id: string; email: string; confirmed: boolean | null }>`
      SELECT p.id, p.email, u."emailVerified" AS confirmed
        FROM profiles p JOIN "user" u ON u.id = p.id WHERE p.email = ${email.toLowerCase()}`.execute(
      db,
    )
  ).rows[0];
  if (!member) return { outcome: 'unknown_member' };
  // A console for an address nobody confirmed could belong to whoever typed it in.
  if (operator && member.confirmed !== true) return { outcome: 'unconfirmed' };
  const done = { outcome: 'done' as const, userId: member.id, email: member.email, operator };
  if (operator) {
    const granted = await db
      .insertInto('operators')
      .values({ user_id: member.id })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return {
      ...done,
      changed: Number(granted.numInsertedOrUpdatedRows ?? 0) > 0,
      endedSessions: [],
    };
  }
  return db.transaction().execute(async (trx) => {
    const revoked = await trx
      .deleteFrom('operators')
      .where('user_id', '=', member.id)
      .executeTakeFirst();
    const changed = Number(revoked.numDeletedRows) > 0;
    return {
      ...done,
      changed,
      endedSessions: changed ? await endEverySession(trx, member.id) : [],
    };
  });
}

/**
 * Whoever revokes the role is answering an incident (a stolen session, an operator who left): every
 * session of the member ends, not only the console's, so a cookie in the wrong hands is worth
 * nothing, and a grant later opens the console only to a new sign-in. The session table's trigger
 * tells every process at commit (migration 0010).
 */
async function endEverySession(trx: Transaction<DB>, userId: string): Promise<string[]> {
  const ended = await sql<{
    token: string;
  }>`DELETE FROM session WHERE "userId" = ${userId} RETURNING token`.execute(trx);
  return ended.rows.map((r) => r.token);
}
