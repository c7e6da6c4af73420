// A member's push subscriptions (one per browser that turned notifications on, migration 0034):
// saved with the topics the device wants, only ever the member's own. An endpoint already held by
// another member is refused (the browser makes a new subscription instead); past
// PUSH_SUBSCRIPTIONS_MAX a new one replaces the member's least recently used.
import {
  deviceName,
  PUSH_SUBSCRIPTIONS_MAX,
  type PushSubscriptionRequest,
  type PushSubscriptionsResponse,
} from '@crw/core';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../infra/db/schema';
import { endpointAllowed } from '../../infra/push/send';

export type SaveOutcome = 'saved' | 'endpoint_refused' | 'taken';

export async function savePushSubscription(
  db: Kysely<DB>,
  userId: string,
  input: PushSubscriptionRequest,
  device: { userAgent: string | undefined; allowLocal: boolean },
): Promise<SaveOutcome> {
  if (!endpointAllowed(input.endpoint, device.allowLocal)) return 'endpoint_refused';
  return db.transaction().execute(async (trx) => {
    const saved = await trx
      .insertInto('push_subscriptions')
      .values({
        user_id: userId,
        endpoint: input.endpoint,
        p256dh: input.keys.p256dh,
        auth: input.keys.auth,
        topics: input.topics,
        label: deviceName(device.userAgent).slice(0, 100),
      })
      .onConflict((oc) =>
        oc
          .column('endpoint')
          .doUpdateSet((eb) => ({
            p256dh: eb.ref('excluded.p256dh'),
            auth: eb.ref('excluded.auth'),
            topics: eb.ref('excluded.topics'),
          }))
          .where('push_subscriptions.user_id', '=', userId),
      )
      .returning('id')
      .executeTakeFirst();
    if (!saved) return 'taken';
    await sql`
      DELETE FROM push_subscriptions
       WHERE user_id = ${userId}
         AND id NOT IN (SELECT id FROM push_subscriptions WHERE user_id = ${userId}
                         ORDER BY id = ${saved.id} DESC,
                                  greatest(created_at, last_success_at) DESC, id DESC
                         LIMIT ${PUSH_SUBSCRIPTIONS_MAX})`.execute(trx);
    return 'saved';
  });
}

/** Removes the member's own subscription of that endpoint; false when they have none such. */
export async function removePushSubscription(
  db: Kysely<DB>,
  userId: string,
  endpoint: string,
): Promise<boolean> {
  const removed = await db
    .deleteFrom('push_subscriptions')
    .where('user_id', '=', userId)
    .where('endpoint', '=', endpoint)
    .executeTakeFirst();
  return Number(removed.numDeletedRows) > 0;
}

export async function pushSubscriptions(
  db: Kysely<DB>,
  userId: string,
): Promise<PushSubscriptionsResponse> {
  const rows = await db
    .selectFrom('push_subscriptions')
    .select(['endpoint', 'topics', 'label', 'created_at', 'last_success_at'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .execute();
  return {
    subscriptions: rows.map((r) => ({
      endpoint: r.endpoint,
      topics: r.topics,
      label: r.label,
      createdAt: new Date(r.created_at).toISOString(),
      lastSuccessAt: r.last_success_at ? new Date(r.last_success_at).toISOString() : null,
    })),
  };
}
