// The member's activity (docs/product.md#the-dashboard): their credits from the reward ledger,
// their conversions, the rounds that made REME claimable for them, the claims the community
// paid for (or made for them) and what happened to their account (security events), newest first. A friend is named only at level 1, by the first word of the name they
// gave; deeper levels are never named (the member does not know them).
import type { ActivityItem, SecurityEventKind } from '@crw/core';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../infra/db/schema';

export const ACTIVITY_LIMIT = 30;

interface Row {
  id: string;
  kind: ActivityItem['kind'];
  at: Date | string;
  caps: number | null;
  reme: string | null;
  level: number | null;
  friend: string | null;
  description: string | null;
  round: number | null;
  held: boolean;
  release_at: Date | string | null;
  for_me: boolean | null;
  security_event: SecurityEventKind | null;
  device: string | null;
}

const iso = (value: Date | string | null) =>
  value === null ? null : new Date(value).toISOString();

/** Where a page of older lines starts: the last line shown (its moment and id). */
export interface ActivityCursor {
  at: Date;
  id: string;
}

export async function memberActivity(
  db: Kysely<DB>,
  userId: string,
  limit = ACTIVITY_LIMIT,
  before?: ActivityCursor,
): Promise<ActivityItem[]> {
  const rows = await activityQuery(userId, limit, before).execute(db);
  return rows.rows.map(activityItem);
}

/** The member's lines, newest first: one statement over every source. */
function activityQuery(userId: string, limit: number, before?: ActivityCursor) {
  // Each source keeps only lines older than the cursor (moment, then id as text), so its own
  // LIMIT never cuts what the page needs.
  const older = (at: ReturnType<typeof sql>, id: ReturnType<typeof sql>) =>
    before
      ? sql`AND (${at}, ${id}) < (${before.at.toISOString()}::timestamptz, ${before.id})`
      : sql``;
  return sql<Row>`
    SELECT * FROM (
      (SELECT 'ledger-' || l.id AS id,
              CASE l.kind WHEN 'signup' THEN 'joined' WHEN 'care_action' THEN 'care' ELSE l.kind END AS kind,
              l.created_at AS at, l.caps, l.reme::text AS reme, l.level,
              CASE WHEN l.kind = 'referral' AND l.level = 1
                   THEN nullif(left(split_part(btrim(f.full_name), ' ', 1), 40), '') END AS friend,
              CASE WHEN l.kind = 'care_action' THEN l.description END AS description,
              NULL::int AS round, l.status = 'held' AS held, l.release_at,
              NULL::boolean AS for_me, NULL::text AS security_event, NULL::text AS device
         FROM reward_ledger l
         LEFT JOIN profiles f ON f.id = l.from_user_id
        WHERE l.user_id = ${userId} AND l.status <> 'void'
              ${older(sql`l.created_at`, sql`'ledger-' || l.id`)}
        ORDER BY l.created_at DESC, 'ledger-' || l.id DESC
        LIMIT ${limit})
      UNION ALL
      -- Each published round that raised the member's cumulative amount, by what it added. Rounds
      -- are few: each is joined to the member's entry by the entries' key (round, member), so this
      -- never scans a round's million entries.
      (SELECT 'round-' || round_index, 'payout', published_at, NULL, added::text, NULL, NULL, NULL,
              round_index, false, NULL, NULL, NULL, NULL
         FROM (SELECT r.round_index, r.published_at,
                      e.cumulative_amount
                        - lag(e.cumulative_amount, 1, 0::numeric) OVER (ORDER BY r.round_index) AS added
                 FROM distribution_rounds r
                 JOIN distribution_entries e
                   ON e.round_index = r.round_index AND e.user_id = ${userId}
                WHERE r.status = 'published') AS rounds
        WHERE true ${older(sql`published_at`, sql`'round-' || round_index`)}
        ORDER BY round_index DESC
        LIMIT ${limit})
      UNION ALL
      -- Claims sent by the community: paid, or failed with the reason the member reads.
      (SELECT 'claim-' || c.id, CASE c.status WHEN 'failed' THEN 'claim_failed' ELSE 'claimed' END,
              c.updated_at, NULL, c.amount::text, NULL, NULL,
              CASE c.status WHEN 'failed' THEN c.reason END,
              c.round_index, false, NULL, c.for_me, NULL, NULL
         FROM sponsored_claims c
        WHERE c.user_id = ${userId} AND c.status IN ('confirmed', 'failed')
              ${older(sql`c.updated_at`, sql`'claim-' || c.id`)}
        ORDER BY c.updated_at DESC, 'claim-' || c.id DESC
        LIMIT ${limit})
      UNION ALL
      -- What happened to the account (migration 0035): the event and the device's name, never more
      -- of its detail (the network stays in the mail).
      (SELECT 'security-' || s.id, 'security', s.at, NULL, NULL, NULL, NULL, NULL, NULL, false, NULL,
              NULL, s.kind, s.detail ->> 'device'
         FROM security_events s
        WHERE s.user_id = ${userId}
              ${older(sql`s.at`, sql`'security-' || s.id`)}
        ORDER BY s.at DESC, 'security-' || s.id DESC
        LIMIT ${limit})
    ) AS activity
    WHERE kind <> 'payout' OR reme::numeric > 0
    ORDER BY at DESC, id DESC
    LIMIT ${limit}`;
}

function activityItem(r: Row): ActivityItem {
  return {
    id: r.id,
    kind: r.kind,
    at: iso(r.at)!,
    caps: r.caps === null ? null : Number(r.caps),
    reme: r.reme,
    level: r.level === null ? null : Number(r.level),
    friend: r.friend,
    description: r.description,
    round: r.round === null ? null : Number(r.round),
    held: r.held,
    releaseAt: iso(r.release_at),
    ...(r.kind === 'claimed' || r.kind === 'claim_failed' ? { forYou: r.for_me === true } : {}),
    ...(r.kind === 'security' ? { securityEvent: r.security_event, device: r.device } : {}),
  };
}

/** The member's activity and how much of it came after they last opened the notification centre
 * (all of it when they never did), at most ACTIVITY_LIMIT. */
export async function memberNotifications(
  db: Kysely<DB>,
  userId: string,
): Promise<{ items: ActivityItem[]; unread: number; seenAt: string | null }> {
  // One statement, the lines and the moment beside them: every open dashboard reads this at once
  // after a round, and each round trip to the database counts then (bench/soak.ts).
  const rows = await sql<Partial<Row> & { seen_at: Date | string | null }>`
    SELECT p.notifications_seen_at AS seen_at, a.*
      FROM profiles p
      LEFT JOIN LATERAL (${activityQuery(userId, ACTIVITY_LIMIT)}) AS a ON true
     WHERE p.id = ${userId}
     ORDER BY a.at DESC, a.id DESC`.execute(db);
  const items = rows.rows
    .filter((r): r is Row & { seen_at: Date | string | null } => r.id != null)
    .map(activityItem);
  const seenAt = rows.rows[0]?.seen_at ?? null;
  const seen = seenAt ? new Date(seenAt) : null;
  return {
    items,
    unread: items.filter((i) => seen === null || new Date(i.at) > seen).length,
    seenAt: seen ? seen.toISOString() : null,
  };
}

/** The member opened the notification centre having seen everything up to `upTo` (never later than
 * now, never earlier than a moment they already saw). */
export async function markNotificationsSeen(
  db: Kysely<DB>,
  userId: string,
  upTo: Date,
): Promise<void> {
  await sql`
    UPDATE profiles
       SET notifications_seen_at = greatest(notifications_seen_at, least(${upTo.toISOString()}::timestamptz, now()))
     WHERE id = ${userId}`.execute(db);
}
