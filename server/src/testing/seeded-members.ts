// Thousands of signed-in members written straight into the database, for the soak and the proxy's
// tests: each is a confirmed account with a wallet and a session, and its cookie is signed with the
// servers' AUTH_SECRET exactly as better-auth signs it (HMAC-SHA-256, base64, URL-encoded), so the
// servers take it as any sign-in's. Registering and signing in 10,000 members through the API would
// take an hour of password hashing; what is measured here is what they do once signed in.
import { createHmac, randomBytes } from 'node:crypto';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../infra/db/schema';

export interface SeededMember {
  id: string;
  email: string;
  cookie: string;
}

/** The session cookie a server with `authSecret` sets for `token` (cookie prefix `crw`, http). */
export function sessionCookie(token: string, authSecret: string): string {
  const signature = createHmac('sha256', authSecret).update(token).digest('base64');
  return `crw.session_token=${encodeURIComponent(`${token}.${signature}`)}`;
}

/** Confirmed accounts, each with a profile and a wallet, one per row of `rows` (columns `id`,
 * `name`, `email`): the seeding every many-member benchmark and test starts from. */
export async function insertMembers(db: Kysely<DB>, rows: RawBuilder<unknown>): Promise<void> {
  await sql`INSERT INTO "user" (id, name, email, "emailVerified", "createdAt", "updatedAt")
            SELECT id, name, email, true, now(), now() FROM (${rows}) s`.execute(db);
  await sql`INSERT INTO profiles (id, username, email) SELECT id, id, email FROM (${rows}) s`.execute(
    db,
  );
  await sql`INSERT INTO user_wallets (user_id, wallet_address, encrypted_wallet)
            SELECT id, '0x' || md5(id) || substr(md5('w' || id), 1, 8), '{}' FROM (${rows}) s`.execute(
    db,
  );
}

/** `count` confirmed members named `<prefix>-<n>`, each signed in for a week. */
export async function seedSignedInMembers(
  db: Kysely<DB>,
  count: number,
  authSecret: string,
  prefix = 'soak',
): Promise<SeededMember[]> {
  const members = Array.from({ length: count }, (_, i) => {
    const token = randomBytes(24).toString('base64url');
    const id = `${prefix}-${String(i + 1).padStart(6, '0')}`;
    return { id, email: `${id}@example.test`, token };
  });
  const ids = members.map((m) => m.id);
  const tokens = members.map((m) => m.token);
  const list = sql`SELECT * FROM unnest(${ids}::text[], ${tokens}::text[]) AS s(id, token)`;
  await insertMembers(
    db,
    sql`SELECT id, 'Member ' || id AS name, id || '@example.test' AS email FROM (${list}) l`,
  );
  await sql`INSERT INTO user_token_distributions (user_id) SELECT id FROM (${list}) s`.execute(db);
  await sql`INSERT INTO session (id, token, "userId", "expiresAt", "createdAt", "updatedAt", "ipAddress", "userAgent")
            SELECT gen_random_uuid(), token, id, now() + interval '7 days', now(), now(), '127.0.0.1', 'soak'
            FROM (${list}) s`.execute(db);
  return members.map(({ id, email, token }) => ({
    id,
    email,
    cookie: sessionCookie(token, authSecret),
  }));
}
