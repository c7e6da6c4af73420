// The console's members: search by the start of a name, e-mail, wallet or referral code, sorted
// by arrival or name, paged by cursor (each shape answered from an index of migration 0017, so a
// page costs the same among a million members), and one member's whole page.
import {
  MEMBER_LEDGER_ROWS,
  MEMBER_PAGE_SIZE,
  type MemberDetail,
  type MemberRow,
  type MemberSearchQuery,
  type MemberSort,
} from '@crw/core/console';
import { getAddress } from 'ethers';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../../infra/db/schema';
import { exportOf } from '../../../domain/members/lifecycle';
import { networkStats } from '../../../domain/referrals/network';

interface Row {
  id: string;
  full_name: string;
  username: string;
  email: string;
  referral_code: string | null;
  wallet_address: string | null;
  created_at: Date;
  created_key: string;
  name_key: string;
  confirmed: boolean | null;
  caps: string | number;
}

const rowOf = (r: Row): MemberRow => ({
  id: r.id,
  name: r.full_name,
  username: r.username,
  email: r.email,
  referralCode: r.referral_code,
  wallet: r.wallet_address && getAddress(r.wallet_address),
  joinedAt: new Date(r.created_at).toISOString(),
  confirmed: r.confirmed === true,
  caps: Number(r.caps),
});

/** LIKE's own characters in what the operator typed are matched as themselves. */
const likePrefix = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** What the search text can be the start of: a wallet, an e-mail, or a name, e-mail or code. */
function matching(q: string): RawBuilder<unknown> {
  const text = q.toLowerCase();
  if (/^0x[0-9a-f]*$/.test(text)) return sql`w.wallet_address LIKE ${likePrefix(text)}`;
  if (text.includes('@')) return sql`p.email LIKE ${likePrefix(text)}`;
  const code = /^[a-z0-9]{1,16}$/.test(text)
    ? sql` OR p.referral_code LIKE ${likePrefix(text.toUpperCase())}`
    : sql``;
  return sql`(lower(p.full_name) LIKE ${likePrefix(text)} OR p.email LIKE ${likePrefix(text)}${code})`;
}

type Cursor = [string, string];
const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');
function decodeCursor(text: string | undefined): Cursor | null {
  if (!text) return null;
  try {
    const c = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(c) && c.length === 2 && c.every((v) => typeof v === 'string'))
      return c as Cursor;
  } catch {
    // an unreadable cursor starts from the top
  }
  return null;
}

const ORDER: Record<
  MemberSort,
  { by: RawBuilder<unknown>; after: (c: Cursor) => RawBuilder<unknown> }
> = {
  joined: {
    by: sql`p.created_at DESC, p.id DESC`,
    after: ([at, id]) => sql`(p.created_at, p.id) < (${at}::timestamptz, ${id})`,
  },
  name: {
    by: sql`lower(p.full_name), p.id`,
    after: ([name, id]) => sql`(lower(p.full_name), p.id) > (${name}, ${id})`,
  },
};

/** A search lists its matches newest first: matches of a common prefix span three columns, and no
 * index gives them in name order (a million-member sort); without a search, either order. */
export async function searchMembers(db: Kysely<DB>, query: MemberSearchQuery) {
  const sort = query.q ? 'joined' : (query.sort ?? 'joined');
  const order = ORDER[sort];
  const cursor = decodeCursor(query.cursor);
  const where = [...(query.q ? [matching(query.q)] : []), ...(cursor ? [order.after(cursor)] : [])];
  const rows = await sql<Row>`
    SELECT p.id, p.full_name, p.username, p.email, p.referral_code, w.wallet_address, p.created_at,
           p.created_at::text AS created_key, lower(p.full_name) AS name_key,
           u."emailVerified" AS confirmed,
           coalesce(d.signup_caps + d.rrp_balance + d.activity_caps, 0) AS caps
      FROM profiles p
      JOIN "user" u ON u.id = p.id
      LEFT JOIN user_wallets w ON w.user_id = p.id
      LEFT JOIN user_token_distributions d ON d.user_id = p.id
     ${where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``}
     ORDER BY ${order.by}
     LIMIT ${MEMBER_PAGE_SIZE + 1}`.execute(db);
  const page = rows.rows.slice(0, MEMBER_PAGE_SIZE);
  const last = page[page.length - 1];
  return {
    members: page.map(rowOf),
    nextCursor:
      rows.rows.length > MEMBER_PAGE_SIZE && last
        ? encodeCursor([sort === 'joined' ? last.created_key : last.name_key, last.id])
        : null,
  };
}

/** One member's page, or undefined for an unknown id. */
export async function memberDetail(db: Kysely<DB>, id: string): Promise<MemberDetail | undefined> {
  const found = await sql<
    Row & { operator: boolean; two_factor: boolean | null; referred_by: string | null }
  >`
    SELECT p.id, p.full_name, p.username, p.email, p.referral_code, w.wallet_address, p.created_at,
           '' AS created_key, '' AS name_key, u."emailVerified" AS confirmed,
           coalesce(d.signup_caps + d.rrp_balance + d.activity_caps, 0) AS caps,
           EXISTS (SELECT 1 FROM operators o WHERE o.user_id = p.id) AS operator,
           u."twoFactorEnabled" AS two_factor, p.referred_by
      FROM profiles p
      JOIN "user" u ON u.id = p.id
      LEFT JOIN user_wallets w ON w.user_id = p.id
      LEFT JOIN user_token_distributions d ON d.user_id = p.id
     WHERE p.id = ${id}`.execute(db);
  const row = found.rows[0];
  // The export file holds the ledger, the counts, the rounds and the claims as the member sees them.
  const data = row && (await exportOf(db, id, new Date(), { newestLedger: MEMBER_LEDGER_ROWS }));
  if (!row || !data) return undefined;
  const stats = await networkStats(db, id);
  const ids = [
    ...stats.data.hierarchy.map((h) => h.referred_id),
    ...(row.referred_by ? [row.referred_by] : []),
  ];
  const names = new Map(
    ids.length
      ? (
          await db
            .selectFrom('profiles')
            .select(['id', 'full_name'])
            .where('id', 'in', ids)
            .execute()
        ).map((p) => [p.id, p.full_name])
      : [],
  );
  const chain = row.wallet_address
    ? await db
        .selectFrom('chain_wallets')
        .select(['reme_balance', 'claimed'])
        .where('address', '=', row.wallet_address)
        .executeTakeFirst()
    : undefined;
  const mails = await db
    .selectFrom('mail_outbox')
    .select(['id', 'subject', 'status', 'attempts', 'last_error', 'created_at', 'sent_at'])
    .where('to_address', '=', row.email)
    .orderBy('id', 'desc')
    .limit(20)
    .execute();
  return {
    member: {
      ...rowOf(row),
      operator: row.operator,
      twoFactorEnabled: row.two_factor === true,
      referredBy: row.referred_by
        ? { id: row.referred_by, name: names.get(row.referred_by) ?? '' }
        : null,
    },
    caps: data.caps,
    ledger: data.ledger,
    network: {
      ...data.referralCounts,
      members: stats.data.hierarchy.map((h) => ({
        id: h.referred_id,
        name: names.get(h.referred_id) ?? '',
        level: h.level,
        parentId: h.parent_id,
        joinedAt: h.created_at,
      })),
    },
    chain: row.wallet_address
      ? {
          remeBalance: chain ? String(chain.reme_balance) : null,
          claimed: chain ? String(chain.claimed) : null,
        }
      : null,
    rounds: data.distributions.map((d) => ({
      round: d.round,
      status: d.status,
      cumulativeAmount: d.cumulativeAmount,
      publishedAt: d.publishedAt,
    })),
    claims: data.claims.onChain,
    sponsoredClaims: data.claims.sponsored.map((s) => ({
      round: s.round,
      amount: s.amount,
      status: s.status,
      reason: s.reason,
      requestedAt: s.requestedAt,
    })),
    mails: mails.map((m) => ({
      id: Number(m.id),
      subject: m.subject,
      status: m.status,
      attempts: m.attempts,
      lastError: m.last_error,
      createdAt: new Date(m.created_at).toISOString(),
      sentAt: m.sent_at ? new Date(m.sent_at).toISOString() : null,
    })),
  };
}
