// The operator role: granted to a confirmed member, revoked, each time said once.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema';

export type RoleChange =
  | { outcome: 'unknown_member' | 'unconfirmed' }
  | { outcome: 'done'; userId: string; email: string; operator: boolean; changed: boolean };

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
  const changed = operator
    ? await db
        .insertInto('operators')
        .values({ user_id: member.id })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst()
    : await db.deleteFrom('operators').where('user_id', '=', member.id).executeTakeFirst();
  const rows =
    'numInsertedOrUpdatedRows' in changed
      ? Number(changed.numInsertedOrUpdatedRows ?? 0)
      : Number(changed.numDeletedRows);
  return { outcome: 'done', userId: member.id, email: member.email, operator, changed: rows > 0 };
}
