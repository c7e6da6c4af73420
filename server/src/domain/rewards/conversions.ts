// Care CAPs converted into REME by the member (docs/product.md#caps-and-reme). The conversion is
// one call of convert_care_caps (migration 0030): the ledger row and the balances in one
// transaction, at the rate in reward_policy, so every process converts at the same rate and no
// CAP is converted twice. Its REME joins the member's entitlement and so their next round.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../infra/db/schema';

export interface Conversion {
  caps: number;
  /** REME bought, in base units. */
  reme: string;
  convertedAt: string;
  /** The first round published after the conversion (which paid it), or null. */
  paidInRound: number | null;
}

/** What convert_care_caps did; the conversion itself is read back by its request id. */
export type ConversionOutcome = 'converted' | 'replayed' | 'closed' | 'key_used' | 'not_enough';

export async function convertCareCaps(
  db: Kysely<DB>,
  userId: string,
  caps: number,
  requestId: string,
): Promise<ConversionOutcome> {
  const result = await sql<{ outcome: ConversionOutcome }>`
    SELECT convert_care_caps(${userId}, ${caps}, ${requestId}) ->> 'outcome' AS outcome`.execute(
    db,
  );
  return result.rows[0]!.outcome;
}

/** The member's conversions, newest first: `limit` of them. */
export async function memberConversions(
  db: Kysely<DB>,
  userId: string,
  limit = 50,
): Promise<Conversion[]> {
  return readConversions(db, sql`l.user_id = ${userId}`, limit);
}

/** The conversion a request made (its `requestId`), if it was this member's. */
export async function conversionByRequest(
  db: Kysely<DB>,
  userId: string,
  requestId: string,
): Promise<Conversion | undefined> {
  const [found] = await readConversions(
    db,
    sql`l.user_id = ${userId} AND l.source_key = ${`convert:${requestId}`}`,
    1,
  );
  return found;
}

async function readConversions(
  db: Kysely<DB>,
  where: RawBuilder<unknown>,
  limit: number,
): Promise<Conversion[]> {
  // Paid in the first round published after it: rounds read every entitlement when made.
  const rows = await sql<{
    caps: number;
    reme: string;
    created_at: Date | string;
    paid_in: number | null;
  }>`
    SELECT l.caps, l.reme::text AS reme, l.created_at,
           (SELECT min(r.round_index) FROM distribution_rounds r
             WHERE r.status = 'published' AND r.created_at >= l.created_at) AS paid_in
      FROM reward_ledger l
     WHERE l.kind = 'conversion' AND ${where}
     ORDER BY l.created_at DESC, l.id DESC
     LIMIT ${limit}`.execute(db);
  return rows.rows.map((row) => ({
    caps: Number(row.caps),
    reme: row.reme,
    convertedAt: new Date(row.created_at).toISOString(),
    paidInRound: row.paid_in === null ? null : Number(row.paid_in),
  }));
}
