// Rewards held before they are trusted (docs/operations.md#reward-integrity): the joining bonus and
// the referral credits a joining brings enter the ledger held (migration 0026). They move no
// balance, so no round counts them, until they are released: by time when nothing flagged the
// joining, by an operator otherwise. An operator may void them instead, the joining's whole
// reward at once (its bonus and the three referrers' credits).
import { capsPerThousandReme } from '@crw/core';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Config } from '../../config';
import type { Database } from '../../infra/db/database';
import { LOCK_KEYS } from '../../infra/db/lock-keys';
import type { DB } from '../../infra/db/schema';

/** What a signal means, in the words the console shows (docs/operations.md#the-signals). */
export const SIGNAL_REASONS: Record<string, string> = {
  busy_network: 'Many sign-ups came from this network in a day',
  same_network_as_referrer: 'Signed up from the same network as the member who referred them',
  same_device_class: 'Many sign-ups came from the same kind of browser and screen in a day',
  referral_burst: 'Their referrer brought several members within an hour',
  referrer_daily_cap: 'Their referrer passed the daily number of referral credits',
  referred_flagged_member: 'A member they referred was flagged',
  cash_out: 'REME from several members’ wallets went to one address outside the community',
  never_opened: 'Never opened the app after confirming their address',
};

/** Writes the policy this server was started with where the database's functions read it. */
export async function writeRewardPolicy(db: Kysely<DB>, config: Config): Promise<void> {
  await db
    .updateTable('reward_policy')
    .set({
      hold_hours: config.REWARD_HOLD_HOURS,
      referrer_daily_cap: config.REWARD_REFERRER_DAILY_CAP,
      busy_network_signups: config.REWARD_BUSY_NETWORK_SIGNUPS,
      conversion_open: config.CONVERSION_OPEN,
      caps_per_thousand_reme: Number(capsPerThousandReme(config.CONVERSION_CAPS_PER_REME)),
      claim_for_me_default: config.CLAIM_FOR_ME_DEFAULT,
    })
    .execute();
}

/** Releases every held credit whose time has come and whose joining is not flagged; how many. */
export async function releaseDueCredits(db: Kysely<DB>): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await sql<{ n: number }>`SELECT release_due_credits(500) AS n`.execute(db);
    const n = Number(result.rows[0]?.n ?? 0);
    total += n;
    if (n < 500) return total;
  }
}

export interface HeldCredit {
  recipientId: string;
  recipientName: string;
  kind: 'signup' | 'referral';
  level: number | null;
  caps: number;
}

export interface ReviewSubject {
  id: string;
  name: string;
  email: string;
  joinedAt: string;
  network: string | null;
  referrer: { id: string; name: string } | null;
  flags: Array<{ signal: string; weight: number; reason: string; detail: string }>;
  flagged: boolean;
  releaseAt: string;
  credits: HeldCredit[];
}

/** Every joining with held credits, flagged first, then the oldest release first (at most `limit`). */
export async function reviewQueue(db: Kysely<DB>, limit = 500): Promise<ReviewSubject[]> {
  const subjects = await sql<{
    id: string;
    name: string;
    email: string;
    joined_at: Date;
    network: string | null;
    referrer_id: string | null;
    referrer_name: string | null;
    flagged: boolean;
    release_at: Date;
  }>`
    SELECT s.subject_id AS id, p.full_name AS name, p.email, p.created_at AS joined_at,
           sig.network, r.id AS referrer_id, r.full_name AS referrer_name,
           joining_waits(s.subject_id) AS flagged, s.release_at
      FROM (SELECT subject_id, min(release_at) AS release_at FROM reward_ledger
             WHERE status = 'held' GROUP BY subject_id) s
      JOIN profiles p ON p.id = s.subject_id
      LEFT JOIN signup_signals sig ON sig.user_id = s.subject_id
      LEFT JOIN profiles r ON r.id = p.referred_by
     ORDER BY flagged DESC, s.release_at, s.subject_id
     LIMIT ${limit}`.execute(db);
  const ids = subjects.rows.map((row) => row.id);
  if (ids.length === 0) return [];
  const flags = await db
    .selectFrom('reward_flags')
    .select(['subject_id', 'signal', 'weight', 'detail'])
    .where('subject_id', 'in', ids)
    .orderBy('weight', 'desc')
    .execute();
  const credits = await db
    .selectFrom('reward_ledger as l')
    .innerJoin('profiles as p', 'p.id', 'l.user_id')
    .select(['l.subject_id', 'l.user_id', 'p.full_name', 'l.kind', 'l.level', 'l.caps'])
    .where('l.status', '=', 'held')
    .where('l.subject_id', 'in', ids)
    .orderBy('l.id')
    .execute();
  return subjects.rows.map((row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    joinedAt: new Date(row.joined_at).toISOString(),
    network: row.network,
    referrer: row.referrer_id ? { id: row.referrer_id, name: row.referrer_name ?? '' } : null,
    flags: flags
      .filter((flag) => flag.subject_id === row.id)
      .map((flag) => ({
        signal: flag.signal,
        weight: flag.weight,
        reason: SIGNAL_REASONS[flag.signal] ?? flag.signal,
        detail: flag.detail,
      })),
    flagged: row.flagged,
    releaseAt: new Date(row.release_at).toISOString(),
    credits: credits
      .filter((credit) => credit.subject_id === row.id)
      .map((credit) => ({
        recipientId: credit.user_id,
        recipientName: credit.full_name,
        kind: credit.kind as 'signup' | 'referral',
        level: credit.level,
        caps: Number(credit.caps),
      })),
  }));
}

/** Which joinings a decision covers: the ones named, every one with held credits from a network,
 * or every one a referrer brought (their direct referrals). */
export type ReviewTarget = { subjects: string[] } | { network: string } | { referrer: string };

async function subjectsOf(db: Kysely<DB>, target: ReviewTarget): Promise<string[]> {
  if ('subjects' in target) return [...new Set(target.subjects)];
  const held = db
    .selectFrom('reward_ledger as l')
    .select('l.subject_id')
    .distinct()
    .where('l.status', '=', 'held');
  const rows =
    'network' in target
      ? await held
          .innerJoin('signup_signals as s', 's.user_id', 'l.subject_id')
          .where('s.network', '=', target.network)
          .execute()
      : await held
          .innerJoin('profiles as p', 'p.id', 'l.subject_id')
          .where('p.referred_by', '=', target.referrer)
          .execute();
  return rows.map((row) => row.subject_id!).filter(Boolean);
}

/** A round is being published: a void that takes back released credits waits until it is done. */
export class RoundBeingPublished extends Error {
  constructor() {
    super('A round is being published; try again in a minute.');
  }
}

/** A void the rounds already paid: a published amount is never taken back (leaves only grow). */
export class CreditInRound extends Error {
  constructor(
    readonly round: number,
    /** The e-mail addresses of the joinings whose credits a round pays. */
    readonly members: string[],
  ) {
    super(
      `A credit of ${members.join(', ')} was released before round ${round} was made, so that ` +
        'round pays it, and a published round cannot take back what it pays. Leave ' +
        (members.length === 1 ? 'this member' : 'these members') +
        ' out and void the others: what is still held can be voided.',
    );
  }
}

export interface Decision {
  outcome: 'release' | 'void';
  note: string;
}

/**
 * Releases or voids every credit of the joinings `target` covers. Release settles what is held.
 * Void settles what is held as void and also reverses what was released but is in no round yet
 * (under the publish lock, so no round is being made meanwhile); if any covered credit is already
 * in a round, nothing changes and CreditInRound says which. Returns the joinings and credits settled.
 */
export async function decideHeldRewards(
  database: Database,
  target: ReviewTarget,
  decision: Decision,
): Promise<{ subjects: string[]; credits: number }> {
  const db = database.db;
  const subjects = await subjectsOf(db, target);
  if (subjects.length === 0) return { subjects: [], credits: 0 };
  if (decision.outcome === 'release') {
    const settled = await settle(db, subjects, 'released', decision.note);
    return { subjects, credits: settled };
  }
  const lock = database.leaderLock(LOCK_KEYS.publishRound);
  if (!(await lock.tryAcquire())) throw new RoundBeingPublished();
  try {
    return await db.transaction().execute(async (trx) => {
      const inRound = await sql<{ round_index: number; members: string[] }>`
        SELECT min(r.round_index) AS round_index, array_agg(DISTINCT u.email ORDER BY u.email) AS members
          FROM reward_ledger l JOIN distribution_rounds r ON r.created_at >= l.settled_at
          JOIN "user" u ON u.id = l.subject_id
         WHERE l.subject_id = ANY(${subjects}) AND l.status = 'released'
        HAVING count(*) > 0`.execute(trx);
      const paid = inRound.rows[0];
      if (paid) throw new CreditInRound(Number(paid.round_index), paid.members);
      const reversed = await sql<{ n: number }>`
        WITH voided AS (
          UPDATE reward_ledger SET status = 'void', settled_at = now(), decision_note = ${decision.note}
           WHERE subject_id = ANY(${subjects}) AND status = 'released'
          RETURNING user_id, kind, caps, reme)
        SELECT count(move_reward_balances(user_id, kind, caps, reme, -1))::int AS n FROM voided`.execute(
        trx,
      );
      const held = await settle(trx, subjects, 'void', decision.note);
      return { subjects, credits: held + Number(reversed.rows[0]?.n ?? 0) };
    });
  } finally {
    await lock.release();
  }
}

async function settle(
  db: Kysely<DB>,
  subjects: string[],
  outcome: 'released' | 'void',
  note: string,
): Promise<number> {
  const result = await sql<{ n: number }>`
    SELECT count(*) FILTER (WHERE settle_held_credit(id, ${outcome}, ${note}))::int AS n
      FROM reward_ledger WHERE subject_id = ANY(${subjects}) AND status = 'held'`.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}

export interface MemberHold {
  caps: number;
  kind: 'signup' | 'referral';
  level: number | null;
  state: 'held' | 'review' | 'void';
  releaseAt: string | null;
  at: string;
}

/** A member's credits not (yet) counted: held ones with their release time (or "review" when an
 * operator must look first), and the ones voided in the last 30 days. */
export async function memberHolds(db: Kysely<DB>, userId: string): Promise<MemberHold[]> {
  const rows = await sql<{
    caps: string;
    kind: 'signup' | 'referral';
    level: number | null;
    status: 'held' | 'void';
    review: boolean;
    release_at: Date | null;
    at: Date;
  }>`
    SELECT caps, kind, level, status, status = 'held' AND joining_waits(subject_id) AS review,
           release_at, coalesce(settled_at, created_at) AS at
      FROM reward_ledger
     WHERE user_id = ${userId}
       AND (status = 'held' OR (status = 'void' AND settled_at > now() - interval '30 days'))
     ORDER BY created_at DESC, id DESC
     LIMIT 50`.execute(db);
  return rows.rows.map((row) => ({
    caps: Number(row.caps),
    kind: row.kind,
    level: row.level,
    state: row.status === 'void' ? 'void' : row.review ? 'review' : 'held',
    releaseAt:
      row.status === 'held' && row.release_at ? new Date(row.release_at).toISOString() : null,
    at: new Date(row.at).toISOString(),
  }));
}
