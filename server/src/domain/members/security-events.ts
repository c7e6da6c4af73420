// Security events (docs/security.md#security-events): what happened to a member's account that
// they must hear of, written where it happens — in the transaction of the change when there is one —
// with a mail they cannot turn off and a notice that makes their open dashboards read the activity
// (and the bell's count) again. A sign-in is on a new device when its browser carries no device
// cookie this member signed in with before.
import { firstNameOf } from './names';
import { createHash } from 'node:crypto';
import { deviceName, type SecurityEventKind } from '@crw/core';
import ipaddr from 'ipaddr.js';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../infra/db/schema';
import { notifyMembers } from '../../infra/db/member-notices';
import { enqueueMail } from '../../infra/mail/outbox';
import { securityMail } from '../../infra/mail/templates';

/** Sign-ins in the first day of an account learn their device without a word: a member registers
 * on one device, confirms on another and signs in on a third, and none of that is news to them. */
const NEW_DEVICE_GRACE_MS = 24 * 60 * 60 * 1000;
/** A download of the member's data within this long of the last one is the same event (a double
 * press, a retried download): one line, one mail. */
const EXPORT_QUIET_MS = 10 * 60 * 1000;
/** The devices kept per member, the most recently seen; an older one is new again. */
const DEVICES_KEPT = 20;

/** Where a request came from, as better-auth or Fastify saw it. */
interface Client {
  userAgent: string | null | undefined;
  address: string | null | undefined;
}

/** The client's network: an IPv4 /24 or an IPv6 /48 (an IPv4-mapped address as its IPv4), enough
 * for a member to tell their home or phone network from a stranger's, not the address itself. */
function networkOf(address: string | null | undefined): string | null {
  if (!address || !ipaddr.isValid(address)) return null;
  const ip = ipaddr.process(address);
  const bits = ip.kind() === 'ipv4' ? 24 : 48;
  const base =
    ip.kind() === 'ipv4'
      ? ipaddr.IPv4.networkAddressFromCIDR(`${ip.toString()}/${bits}`)
      : ipaddr.IPv6.networkAddressFromCIDR(`${ip.toString()}/${bits}`);
  return `${base.toString()}/${bits}`;
}

/** Records one event, queues its mail and tells the member's open pages, in `trx`. */
export async function recordSecurityEvent(
  trx: Kysely<DB> | Transaction<DB>,
  publicUrl: string,
  userId: string,
  kind: SecurityEventKind,
  client: Client,
): Promise<void> {
  const device = deviceName(client.userAgent);
  const network = networkOf(client.address);
  const inserted = await sql<{ at: Date | string; email: string; full_name: string }>`
    WITH event AS (
      INSERT INTO security_events (user_id, kind, detail)
      VALUES (${userId}, ${kind}, ${JSON.stringify({ device, network })}::jsonb)
      RETURNING user_id, at)
    SELECT event.at, p.email, p.full_name
      FROM event JOIN profiles p ON p.id = event.user_id`.execute(trx);
  const row = inserted.rows[0];
  if (!row) return; // a member without a profile (none in practice) gets the row, not a mail
  await enqueueMail(
    trx,
    securityMail({
      to: row.email,
      firstName: firstNameOf(row.full_name),
      kind,
      at: new Date(row.at),
      device,
      network,
      accountUrl: new URL('/account', publicUrl).toString(),
    }),
  );
  await notifyMembers(trx, [userId]);
}

/** `recordSecurityEvent` in a transaction of its own (a change better-auth made and committed). */
export async function recordSecurityChange(
  db: Kysely<DB>,
  publicUrl: string,
  userId: string,
  kind: SecurityEventKind,
  client: Client,
): Promise<void> {
  await db
    .transaction()
    .execute((trx) => recordSecurityEvent(trx, publicUrl, userId, kind, client));
}

/** The member downloaded their data: an event, unless they did within EXPORT_QUIET_MS. */
export async function recordExport(
  db: Kysely<DB>,
  publicUrl: string,
  userId: string,
  client: Client,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    // One download at a time per member is decided here: the member's row is the lock.
    await sql`SELECT id FROM "user" WHERE id = ${userId} FOR UPDATE`.execute(trx);
    const recent = await trx
      .selectFrom('security_events')
      .select('id')
      .where('user_id', '=', userId)
      .where('kind', '=', 'export')
      .where('at', '>', new Date(Date.now() - EXPORT_QUIET_MS))
      .executeTakeFirst();
    if (recent) return false;
    await recordSecurityEvent(trx, publicUrl, userId, 'export', client);
    return true;
  });
}

/** What a sign-in's device was to the member. */
type DeviceSeen = 'known' | 'learned' | 'new';

/**
 * A session began for the member in the browser whose device cookie is `deviceId`. A device this
 * member signed in on before is known; a new one is learned silently while the member has no
 * device yet (the first sign-in after sign-up, or the first since this was recorded) or the
 * account is younger than NEW_DEVICE_GRACE_MS, and is otherwise a new_device event with its mail.
 * `renewal`: better-auth replaced the member's session on this browser (two-factor turned on or
 * off), which is never news.
 */
export async function recordSignIn(
  db: Kysely<DB>,
  publicUrl: string,
  signIn: { userId: string; deviceId: string; client: Client; renewal: boolean },
): Promise<DeviceSeen> {
  const { userId, deviceId, client, renewal } = signIn;
  const hash = createHash('sha256').update(deviceId).digest('hex');
  const label = deviceName(client.userAgent);
  return db.transaction().execute(async (trx) => {
    // One sign-in of the member at a time decides what is new: two at once from two new browsers
    // would otherwise each find no other device.
    const member = await sql<{ created_at: Date | string }>`
      SELECT "createdAt" AS created_at FROM "user" WHERE id = ${userId} FOR UPDATE`.execute(trx);
    const createdAt = member.rows[0]?.created_at;
    if (createdAt === undefined) return 'known';
    const seen = await sql<{ inserted: boolean }>`
      INSERT INTO member_devices (user_id, device_hash, label)
      VALUES (${userId}, ${hash}, ${label})
      ON CONFLICT (user_id, device_hash) DO UPDATE SET last_seen_at = now(), label = EXCLUDED.label
      RETURNING (first_seen_at = now()) AS inserted`.execute(trx);
    if (!seen.rows[0]?.inserted) return 'known';
    // Only the most recently seen devices are kept.
    await sql`
      DELETE FROM member_devices
       WHERE user_id = ${userId}
         AND device_hash NOT IN (SELECT device_hash FROM member_devices WHERE user_id = ${userId}
                                  ORDER BY last_seen_at DESC, first_seen_at DESC LIMIT ${DEVICES_KEPT})`.execute(
      trx,
    );
    const others = await trx
      .selectFrom('member_devices')
      .select('device_hash')
      .where('user_id', '=', userId)
      .where('device_hash', '<>', hash)
      .limit(1)
      .execute();
    const young = Date.now() - new Date(createdAt).getTime() < NEW_DEVICE_GRACE_MS;
    if (renewal || others.length === 0 || young) return 'learned';
    await recordSecurityEvent(trx, publicUrl, userId, 'new_device', client);
    return 'new';
  });
}
