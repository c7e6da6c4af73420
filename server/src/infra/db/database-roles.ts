// Two PostgreSQL roles in production: the schema's owner runs the migrations and grants the
// server's own role what it uses, so the server cannot rewrite the operator audit log (it may add
// and read rows, never change, delete or truncate them, nor switch its triggers off). See
// docs/operations.md#database-roles.
import pg from 'pg';
import { openDatabase, type Database, type RawSession } from './database';

/** Sets the schema up as the owner (`ownerUrl`, with `setUp`), then grants `app`'s role what the
 * server uses. */
export async function migrateAsOwner(
  ownerUrl: string,
  app: Database,
  setUp: (owner: Database) => Promise<string[]>,
): Promise<string[]> {
  const owner = await openDatabase({ kind: 'postgres', url: ownerUrl, poolSize: 1 });
  try {
    const applied = await setUp(owner);
    const appRole = await currentRole(app);
    await owner.withSession(async (session) => {
      if ((await currentRoleOf(session)) !== appRole) await grantAppRole(session, appRole);
    });
    return applied;
  } finally {
    await owner.close();
  }
}

/** The grants, as docs/operations.md lists them: every table and sequence for reading and
 * writing, except that the audit log only takes new rows and the migrations' record is read-only. */
export function appRoleGrants(schema: string, role: string): string {
  const s = pg.escapeIdentifier(schema);
  const r = pg.escapeIdentifier(role);
  return [
    `GRANT USAGE ON SCHEMA ${s} TO ${r};`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} TO ${r};`,
    `GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${s} TO ${r};`,
    `REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON ${s}.operator_audit FROM ${r};`,
    `REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON ${s}.schema_migrations FROM ${r};`,
  ].join('\n');
}

async function grantAppRole(session: RawSession, role: string): Promise<void> {
  const [row] = await session.query<{ schema: string }>('SELECT current_schema() AS schema');
  await session.exec(`BEGIN;\n${appRoleGrants(row!.schema, role)}\nCOMMIT;`);
}

async function currentRole(database: Database): Promise<string> {
  return database.withSession(currentRoleOf);
}

async function currentRoleOf(session: RawSession): Promise<string> {
  const [row] = await session.query<{ role: string }>('SELECT current_user AS role');
  return row!.role;
}

/**
 * Why the server's role could rewrite the audit log (it owns the table, is a member of the
 * owner's role, or is a superuser), or null when it cannot. PGlite is one embedded session
 * whose files are the process's own: roles protect nothing there, so it answers null.
 */
export async function auditLogRewritableBecause(database: Database): Promise<string | null> {
  if (database.kind !== 'postgres') return null;
  const [row] = await database.withSession((session) =>
    session.query<{ role: string; superuser: boolean; owner: string; owns: boolean }>(
      `SELECT current_user AS role, r.rolsuper AS superuser, pg_get_userbyid(c.relowner) AS owner,
              pg_has_role(current_user, c.relowner, 'MEMBER') AS owns
         FROM pg_class c, pg_roles r
        WHERE c.oid = 'operator_audit'::regclass AND r.rolname = current_user`,
    ),
  );
  if (!row) return null;
  if (row.superuser) return `the database role ${row.role} is a superuser`;
  if (row.owns) return `the database role ${row.role} owns operator_audit (as ${row.owner})`;
  return null;
}
