// Web push for the installed app (docs/product.md#notifications): the server's public key, and a
// device's subscription with the topics it wants (the same topics as the mails).
import * as z from 'zod/mini';
import { plainText } from './common';

export const pushTopics = ['credits', 'rounds'] as const;
export type PushTopic = (typeof pushTopics)[number];

/** A push subscription's endpoint: the push service's URL, at most this long. */
export const PUSH_ENDPOINT_MAX = 1024;
/** Subscriptions one member keeps at most; a new one past it replaces their oldest. */
export const PUSH_SUBSCRIPTIONS_MAX = 10;

const base64url = (bytes: number) =>
  z
    .string()
    .check(
      z.length(Math.ceil((bytes * 4) / 3)),
      z.regex(/^[A-Za-z0-9_-]+$/, 'must be base64url without padding'),
    );

/** GET /api/push/key: the applicationServerKey browsers subscribe with (VAPID, base64url). */
export const pushKeyResponse = z.object({ publicKey: z.string() });

/** POST /api/push/subscriptions: this browser's subscription (PushSubscription.toJSON()) and its
 * topics. The same endpoint again changes its topics. */
export const pushSubscriptionRequest = z.object({
  endpoint: plainText(PUSH_ENDPOINT_MAX, { min: 1 }),
  keys: z.object({
    // An uncompressed P-256 point (65 bytes) and a 16-byte secret (RFC 8291).
    p256dh: base64url(65),
    auth: base64url(16),
  }),
  topics: z.array(z.enum(pushTopics)).check(
    z.maxLength(pushTopics.length),
    z.refine((t: string[]) => new Set(t).size === t.length, 'each topic once'),
  ),
});
export type PushSubscriptionRequest = z.infer<typeof pushSubscriptionRequest>;

/** DELETE /api/push/subscriptions: this browser's endpoint. */
export const pushUnsubscribeRequest = z.object({
  endpoint: plainText(PUSH_ENDPOINT_MAX, { min: 1 }),
});

const pushSubscriptionView = z.object({
  endpoint: z.string(),
  topics: z.array(z.enum(pushTopics)),
  /** "Chrome on Android": the device, as its browser said when it subscribed. */
  label: z.string(),
  createdAt: z.string(),
  lastSuccessAt: z.nullable(z.string()),
});
export type PushSubscriptionView = z.infer<typeof pushSubscriptionView>;

/** GET /api/push/subscriptions (and POST's answer): the member's subscriptions, newest first. */
export const pushSubscriptionsResponse = z.object({
  subscriptions: z.array(pushSubscriptionView),
});
export type PushSubscriptionsResponse = z.infer<typeof pushSubscriptionsResponse>;
