// The words of each notification (docs/product.md#notifications), written when it is delivered —
// by mail or by push — from its template and figures: a credit, a round to claim, a round claimed
// for the member, a reminder, a digest of the period's credits. Null when there is nothing to say
// any more (the credit was voided, the REME was claimed meanwhile, the digest's period is empty).
// A friend is named only at level 1, by the first word of their name; the member's own name opens
// the mail. Never a secret: the only link that is not the app's is the unsubscribe link (mail).
import { formatReme } from '@crw/core';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../infra/db/schema';
import { firstNameOf } from '../members/names';

export interface NotificationMessage {
  subject: string;
  heading: string;
  /** Paragraphs; the first one alone says what happened (a push shows only it). */
  lines: string[];
  /** The one link: app-relative. */
  action: { label: string; path: string };
}

export interface QueuedNotification {
  user_id: string;
  template: string;
  params: unknown;
}

const caps = (n: number) => `${n.toLocaleString('en-US')} CAP${n === 1 ? '' : 's'}`;
const reme = (wei: bigint | string) => `${formatReme(wei)} REME`;
const day = (at: Date) =>
  at.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });

interface CreditRow {
  kind: string;
  caps: number;
  level: number | null;
  status: string;
  release_at: Date | null;
  description: string;
  friend: string | null;
}

/** What one credit was for, as the member reads it. */
function creditWords(c: CreditRow): string {
  if (c.kind === 'care_action') return `A care action was credited: ${c.description}`;
  if (c.level === 1) {
    const friend = firstNameOf(c.friend);
    return friend ? `${friend} joined through your link` : 'A friend joined through your link';
  }
  return `Someone your friends invited joined (level ${c.level})`;
}

/** Credits with the full name of the member whose joining they reward: `WHERE` on `l` follows. */
const CREDITS = sql`
  SELECT l.kind, l.caps, l.level, l.status, l.release_at, l.description, f.full_name AS friend
    FROM reward_ledger l LEFT JOIN profiles f ON f.id = l.from_user_id`;

async function creditMessage(
  db: Kysely<DB>,
  ledgerId: number,
): Promise<NotificationMessage | null> {
  const { rows } = await sql<CreditRow>`
    ${CREDITS}
     WHERE l.id = ${ledgerId}`.execute(db);
  const credit = rows[0];
  if (!credit || credit.status === 'void') return null;
  const what = creditWords(credit);
  const lines = [`${what} (+${caps(Number(credit.caps))}).`];
  if (credit.status === 'held')
    lines.push(
      credit.release_at
        ? `The community checks new members' rewards first: these CAPs count from ${day(new Date(credit.release_at))}.`
        : "The community checks new members' rewards first: these CAPs count once it has.",
    );
  return {
    subject: `+${caps(Number(credit.caps))}: ${what}`,
    heading: `You earned ${caps(Number(credit.caps))}`,
    lines,
    action: { label: 'See your rewards', path: '/dashboard' },
  };
}

/** What the member can claim now: the latest published round's cumulative amount less what they
 * claimed (by the entries' key, never a scan of a round's entries). */
async function claimable(
  db: Kysely<DB>,
  userId: string,
): Promise<{ round: number; amount: bigint } | null> {
  const { rows } = await sql<{ round_index: number; cumulative: string; claimed: string | null }>`
    SELECT e.round_index, e.cumulative_amount::text AS cumulative, w.claimed::text AS claimed
      FROM distribution_entries e
      LEFT JOIN chain_wallets w ON w.address = e.wallet_address
     WHERE e.round_index = (SELECT max(round_index) FROM distribution_rounds WHERE status = 'published')
       AND e.user_id = ${userId}`.execute(db);
  const entry = rows[0];
  if (!entry) return null;
  const amount = BigInt(entry.cumulative) - BigInt(entry.claimed ?? 0);
  return amount > 0n ? { round: Number(entry.round_index), amount } : null;
}

async function roundMessage(
  db: Kysely<DB>,
  userId: string,
  round: number,
): Promise<NotificationMessage | null> {
  const open = await claimable(db, userId);
  // Claimed meanwhile, or a later round says it instead.
  if (!open || open.round !== round) return null;
  return {
    subject: `Round ${round}: ${reme(open.amount)} to claim`,
    heading: `${reme(open.amount)} are yours to claim`,
    lines: [
      `Round ${round} is out: ${reme(open.amount)} are waiting for your wallet.`,
      'Open the app and press Claim; it takes a few seconds.',
    ],
    action: { label: 'Claim your REME', path: '/claim' },
  };
}

async function reminderMessage(
  db: Kysely<DB>,
  userId: string,
  round: number,
  days: number,
): Promise<NotificationMessage | null> {
  const open = await claimable(db, userId);
  if (!open || open.round !== round) return null;
  return {
    subject: `Your ${reme(open.amount)} are still waiting`,
    heading: `${reme(open.amount)} are still waiting for you`,
    lines: [
      `Round ${round} came out ${days} days ago and ${reme(open.amount)} are still waiting for your wallet.`,
      'They stay yours: claim them whenever you like. Or turn on "Claim for me" on your account page and the community claims each round for you.',
    ],
    action: { label: 'Claim your REME', path: '/claim' },
  };
}

async function claimedForYouMessage(
  db: Kysely<DB>,
  claimId: number,
): Promise<NotificationMessage | null> {
  const claim = await db
    .selectFrom('sponsored_claims')
    .select(['amount', 'round_index', 'status'])
    .where('id', '=', claimId)
    .executeTakeFirst();
  if (!claim || claim.status !== 'confirmed') return null;
  return {
    subject: `Claimed for you: ${reme(claim.amount)}`,
    heading: `Claimed for you: ${reme(claim.amount)}`,
    lines: [
      `Claimed for you: ${reme(claim.amount)} are in your wallet, from round ${claim.round_index}.`,
      'The community paid the network fee. You can turn "Claim for me" off on your account page.',
    ],
    action: { label: 'See your wallet', path: '/dashboard' },
  };
}

async function digestMessage(
  db: Kysely<DB>,
  userId: string,
  since: Date,
  until: Date,
  period: string,
): Promise<NotificationMessage | null> {
  const { rows } = await sql<CreditRow>`
    ${CREDITS}
     WHERE l.user_id = ${userId} AND l.kind IN ('referral', 'care_action') AND l.status <> 'void'
       AND l.created_at >= ${since.toISOString()}::timestamptz
       AND l.created_at < ${until.toISOString()}::timestamptz
     ORDER BY l.created_at, l.id
     LIMIT 51`.execute(db);
  if (rows.length === 0) return null;
  const total = rows.reduce((sum, r) => sum + Number(r.caps), 0);
  const shown = rows.slice(0, 50).map((r) => `${creditWords(r)} (+${caps(Number(r.caps))}).`);
  return {
    subject: `Your ${period === 'day' ? 'daily' : 'weekly'} digest: +${caps(total)}`,
    heading: `+${caps(total)} in the last ${period}`,
    lines: [
      `You earned ${caps(total)} from ${rows.length === 51 ? 'more than 50' : rows.length} credit${rows.length === 1 ? '' : 's'} since ${day(since)}.`,
      ...shown,
    ],
    action: { label: 'See your rewards', path: '/dashboard' },
  };
}

const num = (value: unknown): number => (typeof value === 'number' ? value : Number.NaN);

/** The words of a queued notification, or null when there is nothing to say any more. */
export async function notificationMessage(
  db: Kysely<DB>,
  n: QueuedNotification,
): Promise<NotificationMessage | null> {
  const p = (n.params ?? {}) as Record<string, unknown>;
  switch (n.template) {
    case 'credit':
      return creditMessage(db, num(p.ledgerId));
    case 'round':
      return roundMessage(db, n.user_id, num(p.round));
    case 'reminder':
      return reminderMessage(db, n.user_id, num(p.round), num(p.days));
    case 'claimed-for-you':
      return claimedForYouMessage(db, num(p.claimId));
    case 'digest':
      return digestMessage(
        db,
        n.user_id,
        new Date(String(p.since)),
        new Date(String(p.until)),
        p.period === 'day' ? 'day' : 'week',
      );
    default:
      return null;
  }
}
