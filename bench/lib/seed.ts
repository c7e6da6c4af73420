// Members seeded straight into PostgreSQL for the benchmarks that need many (not timed).
import { sql, type Kysely } from 'kysely';
import type { DB } from '@crw/server/infra/db/schema';

/** `size` confirmed members, each with a wallet and 200–300 REME of entitlement. */
export async function seedMembers(db: Kysely<DB>, size: number): Promise<void> {
  const ids = sql`SELECT i, 'user-' || lpad(i::text, 8, '0') AS id FROM generate_series(1, ${size}) AS i`;
  await sql`INSERT INTO "user" (id, name, email, "emailVerified", "createdAt", "updatedAt")
            SELECT id, 'Member ' || i, id || '@example.com', true, now(), now() FROM (${ids}) s`.execute(
    db,
  );
  await sql`INSERT INTO profiles (id, username, email) SELECT id, id, id || '@example.com' FROM (${ids}) s`.execute(
    db,
  );
  await sql`INSERT INTO user_wallets (user_id, wallet_address, encrypted_wallet)
            SELECT id, '0x' || md5(id) || substr(md5('w' || id), 1, 8), '{}' FROM (${ids}) s`.execute(
    db,
  );
  await sql`INSERT INTO user_token_distributions (user_id, signup_tokens)
            SELECT id, (200 + (i % 5) * 25) * 10::numeric ^ 18 FROM (${ids}) s`.execute(db);
}
