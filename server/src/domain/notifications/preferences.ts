// The member's notification choices (docs/product.md#notifications): mails about credits (each,
// a daily or weekly digest, or none), mails about rounds (on or off) and "claim for me". Security
// mails are always sent. Every notification mail carries a one-click unsubscribe link (RFC 8058)
// that needs no sign-in: it names the member, the topic and the topic's version, signed with an
// HMAC under a key derived from the server's signing key. A change of the topic moves its version,
// so a link works once and a replay, or a link older than the member's last change, is refused.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { MailCredits, NotificationTopic } from '../../infra/db/schema';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../infra/db/schema';
import { AppError } from '../../app-error';

export interface NotificationSettings {
  credits: MailCredits;
  rounds: boolean;
  claimForMe: boolean;
}

export async function notificationSettings(
  db: Kysely<DB>,
  userId: string,
): Promise<NotificationSettings | undefined> {
  const row = await db
    .selectFrom('profiles')
    .select(['mail_credits', 'mail_rounds', 'claim_for_me'])
    .where('id', '=', userId)
    .executeTakeFirst();
  return (
    row && { credits: row.mail_credits, rounds: row.mail_rounds, claimForMe: row.claim_for_me }
  );
}

/** Changes what `patch` names; a topic whose choice changes moves its version (older unsubscribe
 * links stop working). */
export async function updateNotificationSettings(
  db: Kysely<DB>,
  userId: string,
  patch: Partial<NotificationSettings>,
): Promise<NotificationSettings | undefined> {
  const credits = patch.credits ?? null;
  const rounds = patch.rounds ?? null;
  const claimForMe = patch.claimForMe ?? null;
  const { rows } = await sql<{
    mail_credits: MailCredits;
    mail_rounds: boolean;
    claim_for_me: boolean;
  }>`
    UPDATE profiles SET
      mail_credits_version = mail_credits_version
        + (${credits}::text IS NOT NULL AND ${credits}::text <> mail_credits)::int,
      mail_rounds_version = mail_rounds_version
        + (${rounds}::boolean IS NOT NULL AND ${rounds}::boolean <> mail_rounds)::int,
      mail_credits = coalesce(${credits}::text, mail_credits),
      mail_rounds = coalesce(${rounds}::boolean, mail_rounds),
      claim_for_me = coalesce(${claimForMe}::boolean, claim_for_me)
     WHERE id = ${userId}
     RETURNING mail_credits, mail_rounds, claim_for_me`.execute(db);
  const row = rows[0];
  return (
    row && { credits: row.mail_credits, rounds: row.mail_rounds, claimForMe: row.claim_for_me }
  );
}

/** What an unsubscribe link carries: member, topic, the topic's version, and the signature. */
export interface UnsubscribeParams {
  m: string;
  t: NotificationTopic;
  v: number;
  s: string;
}

function signature(key: string, m: string, t: NotificationTopic, v: number): string {
  const derived = createHmac('sha256', key).update('unsubscribe-links').digest();
  return createHmac('sha256', derived).update(`${m}\n${t}\n${v}`).digest('base64url');
}

/** The link's query: `m`, `t`, `v`, `s`. */
export function unsubscribeQuery(
  key: string,
  userId: string,
  topic: NotificationTopic,
  version: number,
): string {
  return new URLSearchParams({
    m: userId,
    t: topic,
    v: String(version),
    s: signature(key, userId, topic, version),
  }).toString();
}

/** Turns the link's topic off. A forged signature, another member's id under this signature, a
 * replay or a link older than the member's last change of the topic: refused, nothing changes. */
export async function unsubscribe(
  db: Kysely<DB>,
  key: string,
  link: UnsubscribeParams,
): Promise<{ topic: NotificationTopic }> {
  const expected = Buffer.from(signature(key, link.m, link.t, link.v));
  const given = Buffer.from(link.s);
  if (expected.length !== given.length || !timingSafeEqual(expected, given))
    throw new AppError(400, 'invalid_unsubscribe_link');
  const versionColumn = link.t === 'credits' ? sql`mail_credits_version` : sql`mail_rounds_version`;
  const turnOff = link.t === 'credits' ? sql`mail_credits = 'off'` : sql`mail_rounds = false`;
  const { rows } = await sql<{ id: string }>`
    UPDATE profiles SET ${turnOff}, ${versionColumn} = ${versionColumn} + 1
     WHERE id = ${link.m} AND ${versionColumn} = ${link.v}
     RETURNING id`.execute(db);
  if (rows.length === 0) throw new AppError(410, 'unsubscribe_link_used');
  return { topic: link.t };
}
