// The security settings' storage: the member's two-factor flag, their sessions, their names.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../infra/db/schema';
import { notifyMembers } from '../../infra/db/member-notices';

interface SessionRow {
  id: string;
  userAgent: string | null;
  ipAddress: string | null;
  createdAt: Date;
  updatedAt: Date;
  current: boolean;
}

/** The two-factor flag (undefined when the member is gone) and the unexpired sessions, the one
 * holding `token` first. */
export async function securityOf(db: Kysely<DB>, userId: string, token: string) {
  const [user, rows] = await Promise.all([
    sql<{
      twoFactorEnabled: boolean | null;
    }>`SELECT "twoFactorEnabled" FROM "user" WHERE id = ${userId}`.execute(db),
    sql<SessionRow>`
      SELECT id, "userAgent", "ipAddress", "createdAt", "updatedAt", token = ${token} AS current
      FROM session WHERE "userId" = ${userId} AND "expiresAt" > now()
      ORDER BY current DESC, "updatedAt" DESC`.execute(db),
  ]);
  const found = user.rows[0];
  return found && { twoFactorEnabled: found.twoFactorEnabled === true, sessions: rows.rows };
}

/** Ends the member's sessions: one (by id), or all but the one holding `keepToken`. Answers the
 * ended sessions' tokens; the session table's trigger tells every process. */
export async function endSessions(
  db: Kysely<DB>,
  userId: string,
  which: { id: string } | { keepToken: string },
): Promise<string[]> {
  const where =
    'id' in which
      ? sql`id = ${which.id} AND "userId" = ${userId}`
      : sql`"userId" = ${userId} AND token <> ${which.keepToken}`;
  const ended = await sql<{
    token: string;
  }>`DELETE FROM session WHERE ${where} RETURNING token`.execute(db);
  return ended.rows.map((r) => r.token);
}

/** The member's name and username, in their profile and better-auth's user row. */
export async function updateProfile(
  db: Kysely<DB>,
  userId: string,
  names: { fullName: string; username: string },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('profiles')
      .set({ full_name: names.fullName, username: names.username })
      .where('id', '=', userId)
      .execute();
    await sql`UPDATE "user" SET name = ${names.fullName}, "updatedAt" = now() WHERE id = ${userId}`.execute(
      trx,
    );
    // Every process's copy of the member and their open tabs hear of it.
    await notifyMembers(trx, [userId]);
  });
}
