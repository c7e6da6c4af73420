// What members are told, and what is done for them, after a round and as time passes
// (docs/product.md#notifications, docs/decisions/0023-notifications.md) — a pass a minute in the
// one process that holds the lock, and one right after a round is published:
// - "Claim for me": the claim of each member who left it on and has REME unclaimed in the round
//   the chain follower follows is queued for the relayer, as many as the day's sponsor budget
//   holds (the rest at the next pass, the budget renews each day); not for a member whose claim is
//   on its way or was already tried for this amount, nor for an account the sponsor never pays for
//   (too new, or its joining is being checked) — those get the round's mail instead.
// - The round's mail, once per round, to each member the round gave more REME whose claim is not
//   being made for them.
// - A reminder 7 and 30 days after a round, once each, to a member it gave more REME who still has
//   not claimed it.
// - The daily and weekly digests of credits.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../infra/db/schema';
import { LOCK_KEYS } from '../../infra/db/lock-keys';
import { notifyMembers } from '../../infra/db/member-notices';
import {
  RESERVED_GAS_PER_CLAIM,
  spentToday,
  unsponsoredMember,
  type SponsorSettings,
} from '../sponsorship/sponsor';

export const REMINDER_DAYS = [7, 30] as const;
const DAY_MS = 86_400_000;

/** The sponsor's side of "claim for me": its settings and the fee now (null: cannot be read, or
 * above what the community pays). */
export interface ClaimForMeSponsor {
  settings: SponsorSettings;
  maxFeePerGas: () => Promise<bigint | null>;
}

interface FollowedRound {
  index: number;
  noticesAt: Date | null;
  publishedAt: Date;
  remindersSent: number;
}

/** The round the follower follows, when it is one this server published. */
async function followedRound(db: Kysely<DB>): Promise<FollowedRound | null> {
  const { rows } = await sql<{
    round_index: number;
    notices_at: Date | null;
    published_at: Date;
    reminders_sent: number;
  }>`
    SELECT r.round_index, r.notices_at, r.published_at, r.reminders_sent
      FROM chain_follower_state s
      JOIN distribution_rounds r ON r.round_index = s.round_index AND r.status = 'published'`.execute(
    db,
  );
  const row = rows[0];
  return row
    ? {
        index: Number(row.round_index),
        noticesAt: row.notices_at,
        publishedAt: new Date(row.published_at),
        remindersSent: Number(row.reminders_sent),
      }
    : null;
}

/** The round's entries whose claim is to be made for the member: claim for me on, REME unclaimed,
 * no claim of that amount on its way or already tried for them, an account the sponsor pays for.
 * Columns of `e` (the entry) and `w` (the wallet's figures) follow. */
const owedForMe = (round: number, minAgeHours: number) => sql`
  FROM distribution_entries e
  JOIN profiles p ON p.id = e.user_id AND p.claim_for_me
  LEFT JOIN chain_wallets w ON w.address = e.wallet_address
 WHERE e.round_index = ${round}
   AND e.cumulative_amount > coalesce(w.claimed, 0)
   AND NOT EXISTS (SELECT 1 FROM sponsored_claims c
                    WHERE c.account = e.wallet_address
                      AND c.cumulative_amount = e.cumulative_amount
                      AND (c.status <> 'failed' OR c.for_me))
   AND NOT ${unsponsoredMember(minAgeHours)}`;

/** Queues "claim for me" claims of the round, within what is left of the day's budget. */
export async function queueClaimsForMe(
  db: Kysely<DB>,
  round: number,
  sponsor: ClaimForMeSponsor,
): Promise<string[]> {
  const { settings } = sponsor;
  if (!settings.enabled) return [];
  // The fee is asked of the node only when some member's claim is to be made.
  const { rows: wanted } =
    await sql`SELECT 1 ${owedForMe(round, settings.minAccountAgeHours)} LIMIT 1`.execute(db);
  if (wanted.length === 0) return [];
  const fee = await sponsor.maxFeePerGas();
  if (fee === null) return [];
  const reserved = RESERVED_GAS_PER_CLAIM * fee;
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${LOCK_KEYS.sponsorBudget})`.execute(trx);
    const left = settings.dailyBudgetWei - (await spentToday(trx));
    const room = reserved > 0n ? left / reserved : 10_000n;
    if (room <= 0n) return [];
    const { rows } = await sql<{ user_id: string }>`
      INSERT INTO sponsored_claims
        (user_id, account, round_index, cumulative_amount, amount, status, reserved_wei, for_me)
      SELECT e.user_id, e.wallet_address, e.round_index, e.cumulative_amount,
             e.cumulative_amount - coalesce(w.claimed, 0), 'queued', ${reserved.toString()}::numeric, true
        ${owedForMe(round, settings.minAccountAgeHours)}
       ORDER BY e.tree_index
       LIMIT ${room.toString()}::bigint
      RETURNING user_id`.execute(trx);
    const members = rows.map((r) => r.user_id);
    await notifyMembers(trx, members);
    return members;
  });
}

/** The members a round gave more REME than the round before it. */
const gainedIn = (round: number) => sql`
  SELECT e.user_id, e.wallet_address, e.cumulative_amount
    FROM distribution_entries e
    LEFT JOIN distribution_entries prev
      ON prev.round_index = ${round - 1} AND prev.user_id = e.user_id
   WHERE e.round_index = ${round}
     AND e.cumulative_amount > coalesce(prev.cumulative_amount, 0)`;

/** The round's mails, once: to each member it gave more REME, unclaimed, whose claim is not being
 * made for them (claim for me off, or an account the sponsor does not pay for). */
async function queueRoundMails(
  db: Kysely<DB>,
  round: number,
  claimForMe: { enabled: boolean; minAgeHours: number },
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ round_index: number }>`
      UPDATE distribution_rounds SET notices_at = now()
       WHERE round_index <= ${round} AND notices_at IS NULL AND status = 'published'
       RETURNING round_index`.execute(trx);
    if (!rows.some((r) => Number(r.round_index) === round)) return 0;
    const forMe = claimForMe.enabled
      ? sql`p.claim_for_me AND NOT ${unsponsoredMember(claimForMe.minAgeHours)}`
      : sql`false`;
    const { rows: queued } = await sql<{ n: string }>`
      WITH gained AS (${gainedIn(round)}),
      told AS (
        SELECT queue_notification(g.user_id, 'rounds', 'round',
                 jsonb_build_object('round', ${round}::int, 'amount', (g.cumulative_amount - coalesce(w.claimed, 0))::text))
          FROM gained g
          JOIN profiles p ON p.id = g.user_id
          LEFT JOIN chain_wallets w ON w.address = g.wallet_address
         WHERE g.cumulative_amount > coalesce(w.claimed, 0) AND NOT (${forMe}))
      SELECT count(*)::text AS n FROM told`.execute(trx);
    return Number(queued[0]?.n ?? 0);
  });
}

/** Reminders of the followed round after 7 and 30 days, each looked for once (the round's
 * `reminders_sent`), to members it gave more REME who have not claimed it and whose claim is not
 * on its way. Answers how many were sent. */
export async function queueClaimReminders(
  db: Kysely<DB>,
  round: FollowedRound,
  now = new Date(),
): Promise<number> {
  let sent = 0;
  for (const days of REMINDER_DAYS) {
    if (round.remindersSent >= days) continue;
    const age = now.getTime() - round.publishedAt.getTime();
    if (age < days * DAY_MS) break;
    // A round found 30 days old sends the 30-day reminder only.
    if (days === 7 && age >= 30 * DAY_MS) continue;
    const { rows } = await sql<{ n: string }>`
      WITH due AS (
        INSERT INTO claim_reminders (user_id, round_index, after_days)
        SELECT g.user_id, ${round.index}, ${days}
          FROM (${gainedIn(round.index)}) g
          JOIN profiles p ON p.id = g.user_id AND p.mail_rounds
          LEFT JOIN chain_wallets w ON w.address = g.wallet_address
         WHERE g.cumulative_amount > coalesce(w.claimed, 0)
           AND NOT EXISTS (SELECT 1 FROM sponsored_claims c
                            WHERE c.account = g.wallet_address
                              AND c.cumulative_amount = g.cumulative_amount
                              AND c.status IN ('queued', 'sent'))
        ON CONFLICT DO NOTHING
        RETURNING user_id),
      told AS (
        SELECT queue_notification(user_id, 'rounds', 'reminder',
                 jsonb_build_object('round', ${round.index}::int, 'days', ${days}::int))
          FROM due),
      marked AS (
        UPDATE distribution_rounds SET reminders_sent = ${days} WHERE round_index = ${round.index})
      SELECT count(*)::text AS n FROM told`.execute(db);
    sent += Number(rows[0]?.n ?? 0);
  }
  return sent;
}

/** Queues the digests that are due (a day or a week after the last one's period ended) of members
 * who chose one and earned credits in the period; every due member's period moves on. */
export async function queueDigests(db: Kysely<DB>, now = new Date()): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    WITH due AS (
      SELECT p.id, p.email, p.mail_credits,
             coalesce(p.digest_until,
                      ${now.toISOString()}::timestamptz
                        - CASE p.mail_credits WHEN 'daily' THEN interval '1 day' ELSE interval '7 days' END) AS since
        FROM profiles p JOIN "user" u ON u.id = p.id AND u."emailVerified"
       WHERE p.mail_credits IN ('daily', 'weekly')
         AND (p.digest_until IS NULL
              OR p.digest_until <= ${now.toISOString()}::timestamptz
                   - CASE p.mail_credits WHEN 'daily' THEN interval '1 day' ELSE interval '7 days' END)
       FOR UPDATE OF p),
    moved AS (
      UPDATE profiles p SET digest_until = ${now.toISOString()}::timestamptz FROM due WHERE p.id = due.id),
    queued AS (
      INSERT INTO notification_mails (user_id, to_address, topic, template, params)
      SELECT due.id, due.email, 'credits', 'digest',
             jsonb_build_object('since', due.since, 'until', ${now.toISOString()}::timestamptz,
                                'period', CASE due.mail_credits WHEN 'daily' THEN 'day' ELSE 'week' END)
        FROM due
       WHERE EXISTS (SELECT 1 FROM reward_ledger l
                      WHERE l.user_id = due.id AND l.kind IN ('referral', 'care_action')
                        AND l.status <> 'void'
                        AND l.created_at >= due.since AND l.created_at < ${now.toISOString()}::timestamptz)
      RETURNING 1)
    SELECT count(*)::text AS n FROM queued`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

export interface NoticesPass {
  round: number | null;
  claimsForMe: number;
  roundMails: number;
  reminders: number;
  digests: number;
}

/** One pass: claims for members, the followed round's mails (once), reminders, digests. */
export async function noticesPass(
  db: Kysely<DB>,
  sponsor: ClaimForMeSponsor | undefined,
  now = new Date(),
): Promise<NoticesPass> {
  const round = await followedRound(db);
  let claimsForMe = 0;
  let roundMails = 0;
  let reminders = 0;
  if (round) {
    // Claims first: the round's mails then skip the members whose claim is being made for them.
    if (sponsor) claimsForMe = (await queueClaimsForMe(db, round.index, sponsor)).length;
    if (round.noticesAt === null)
      roundMails = await queueRoundMails(db, round.index, {
        enabled: sponsor?.settings.enabled ?? false,
        minAgeHours: sponsor?.settings.minAccountAgeHours ?? 0,
      });
    reminders = await queueClaimReminders(db, round, now);
  }
  const digests = await queueDigests(db, now);
  return { round: round?.index ?? null, claimsForMe, roundMails, reminders, digests };
}
