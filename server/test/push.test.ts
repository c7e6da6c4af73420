// Web push through a local push service that checks the VAPID signature and decrypts each payload
// itself (src/testing/push-service.ts): a friend's joining and a published round reach the
// member's subscribed device, whatever their mail choice, only on the topics the device chose;
// the key is kept in DATA_DIR (0600); a subscription the service reports gone is removed, other
// failures are retried; and the routes refuse a stranger, another member's subscription,
// malformed, oversized and unsafe input, and keep at most ten subscriptions per member.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_SUBSCRIPTIONS_MAX } from '@crw/core';
import {
  joinNamed,
  makeMemberKeys,
  ORIGIN,
  type MemberKeys,
  type NamedMember,
} from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';
import { until } from './helpers/until';
import { noticesPass } from '../src/domain/notifications/round-notices';
import { claimForMeSponsor } from '../src/services';
import {
  startPushService,
  type PushService,
  type TestSubscription,
} from '../src/testing/push-service';

let t: TestApp;
let service: PushService;
let base: MemberKeys;

const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36';

beforeAll(async () => {
  service = await startPushService();
  t = await buildTestApp();
  // The tests run the worker's and the notices' passes themselves, to read what each did.
  await t.services.push.stop();
  base = await makeMemberKeys();
  await t.services.notices.stop();
}, 60_000);
afterAll(async () => {
  await t?.close();
  await service?.close();
});

const db = () => t.services.database.db;

const join = (firstName: string, referralCode?: string) =>
  joinNamed(t.app, db(), base, firstName, referralCode);

const call = (
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  m: NamedMember | null,
  payload?: unknown,
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method,
    url,
    headers: {
      ...(m ? { cookie: m.cookie } : {}),
      ...(method === 'GET' ? {} : { origin: ORIGIN }),
      ...(typeof payload === 'string' ? { 'content-type': 'application/json' } : {}),
      'user-agent': CHROME_ANDROID,
      ...headers,
    },
    ...(payload === undefined ? {} : { payload: payload as string | object }),
  });

const subscribe = (m: NamedMember, s: TestSubscription, topics = ['credits', 'rounds']) =>
  call('POST', '/api/push/subscriptions', m, { endpoint: s.endpoint, keys: s.keys, topics });

/** The pushes the service received for a subscription, their payloads parsed. */
const pushesTo = (s: TestSubscription) =>
  service.received
    .filter((p) => p.id === s.id)
    .map((p) => ({
      ...p,
      payload: JSON.parse(p.text) as { title: string; body: string; url: string },
    }));

/** Runs the worker's passes until nothing is due (the test drives it, rather than wait on polls). */
async function deliver(): Promise<void> {
  while ((await t.services.push.deliverDue()) > 0);
}

describe(`web push (${testDbKind})`, () => {
  let rosa: NamedMember;
  let maya: NamedMember;
  let phone: TestSubscription;
  let laptop: TestSubscription;

  it('the key: members only; made at first start and kept in DATA_DIR, readable by the server alone', async () => {
    rosa = await join('Rosa');
    expect((await call('GET', '/api/push/key', null)).statusCode).toBe(401);
    const res = await call('GET', '/api/push/key', rosa);
    expect(res.statusCode).toBe(200);
    const { publicKey } = res.json() as { publicKey: string };
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    const file = path.join(t.services.config.dataDir, 'vapid-keys');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const { readFile } = await import('node:fs/promises');
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ publicKey });
  });

  it('a friend joining reaches the subscribed device — signed with that key, encrypted to the device — even with credit mails off', async () => {
    phone = service.subscribe();
    laptop = service.subscribe();
    const saved = await subscribe(rosa, phone);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().subscriptions).toEqual([
      expect.objectContaining({
        endpoint: phone.endpoint,
        topics: ['credits', 'rounds'],
        label: 'Chrome on Android',
        lastSuccessAt: null,
      }),
    ]);
    // The laptop wants rounds only.
    expect((await subscribe(rosa, laptop, ['rounds'])).statusCode).toBe(200);
    const off = await t.app.inject({
      method: 'PUT',
      url: '/api/notifications/settings',
      headers: { cookie: rosa.cookie, origin: ORIGIN },
      payload: { credits: 'off', rounds: false },
    });
    expect(off.statusCode).toBe(200);

    maya = await join('Maya', rosa.code);
    await deliver();
    const { publicKey } = (await call('GET', '/api/push/key', rosa)).json() as {
      publicKey: string;
    };
    const pushes = pushesTo(phone);
    expect(pushes).toHaveLength(1);
    expect(pushes[0]).toMatchObject({
      vapidKey: publicKey,
      ttl: 86_400,
      urgency: 'normal',
      payload: {
        title: '+100 CAPs: Maya joined through your link',
        body: 'Maya joined through your link (+100 CAPs).',
        url: '/dashboard',
      },
    });
    expect(pushes[0]!.subject).toMatch(/^(https:|mailto:)/);
    expect(pushesTo(laptop)).toEqual([]);
    expect(service.refused).toEqual([]);
    // No mail: Rosa turned credit mails off; the push does not depend on it.
    expect(
      await db()
        .selectFrom('notification_mails')
        .select('id')
        .where('user_id', '=', rosa.id)
        .execute(),
    ).toEqual([]);
    const listed = (await call('GET', '/api/push/subscriptions', rosa)).json();
    expect(
      listed.subscriptions.find((s: { endpoint: string }) => s.endpoint === phone.endpoint)
        .lastSuccessAt,
    ).not.toBeNull();
  });

  it('a published round reaches every device subscribed to rounds, opening the claim screen', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/operator/distributions',
      headers: { authorization: `Bearer ${t.services.operatorKey}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.services.follower.syncNow();
    const round = (res.json() as { index: number }).index;
    const pass = await noticesPass(db(), claimForMeSponsor(t.services.config, t.services.relayer));
    expect(pass.round).toBe(round);
    await deliver();
    for (const device of [phone, laptop]) {
      const roundPush = pushesTo(device).find((p) => p.payload.title.startsWith(`Round ${round}:`));
      expect(roundPush?.payload).toEqual({
        title: expect.stringMatching(new RegExp(`^Round ${round}: [\\d.,]+ REME to claim$`)),
        body: expect.stringContaining(`Round ${round} is out`),
        url: '/claim',
      });
    }
  });

  it('another member’s subscription: neither taken over nor removed', async () => {
    const taken = await subscribe(maya, phone, ['credits']);
    expect(taken.statusCode).toBe(403);
    expect(taken.json().code).toBe('forbidden');
    const removed = await call('DELETE', '/api/push/subscriptions', maya, {
      endpoint: phone.endpoint,
    });
    expect(removed.statusCode).toBe(404);
    const row = await db()
      .selectFrom('push_subscriptions')
      .select(['user_id', 'topics', 'p256dh'])
      .where('endpoint', '=', phone.endpoint)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      user_id: rosa.id,
      topics: ['credits', 'rounds'],
      p256dh: phone.keys.p256dh,
    });
    // Maya's own list shows none of Rosa's devices.
    expect((await call('GET', '/api/push/subscriptions', maya)).json()).toEqual({
      subscriptions: [],
    });
  });

  it('refuses a stranger, a cross-site request, malformed, unsafe and oversized input', async () => {
    const good = service.subscribe();
    const body = { endpoint: good.endpoint, keys: good.keys, topics: ['rounds'] };
    for (const [method, url] of [
      ['GET', '/api/push/subscriptions'],
      ['POST', '/api/push/subscriptions'],
      ['DELETE', '/api/push/subscriptions'],
    ] as const)
      expect((await call(method, url, null, method === 'GET' ? undefined : body)).statusCode).toBe(
        401,
      );
    const crossSite = await call('POST', '/api/push/subscriptions', maya, body, {
      origin: 'https://evil.example',
    });
    expect(crossSite.statusCode).toBe(403);

    const bad: Array<[string, unknown]> = [
      ['not JSON', '{"endpoint":'],
      ['no keys', { endpoint: good.endpoint, topics: [] }],
      ['ftp endpoint', { ...body, endpoint: 'ftp://push.example.org/x' }],
      ['plain http to a public host', { ...body, endpoint: 'http://push.example.org/x' }],
      ['http to localhost by name', { ...body, endpoint: 'http://localhost:9/x' }],
      ['https to a private address', { ...body, endpoint: 'https://10.0.0.1/x' }],
      ['https to loopback', { ...body, endpoint: 'https://[::1]/x' }],
      ['https to an internal name', { ...body, endpoint: 'https://push.internal/x' }],
      ['https on another port', { ...body, endpoint: 'https://push.example.org:8443/x' }],
      ['credentials in the URL', { ...body, endpoint: 'https://a:b@push.example.org/x' }],
      ['not a URL', { ...body, endpoint: 'push' }],
      ['endpoint too long', { ...body, endpoint: `https://push.example.org/${'a'.repeat(1100)}` }],
      ['short p256dh', { ...body, keys: { ...good.keys, p256dh: good.keys.p256dh.slice(1) } }],
      ['auth not base64url', { ...body, keys: { ...good.keys, auth: '+'.repeat(22) } }],
      ['an unknown topic', { ...body, topics: ['sms'] }],
      ['a topic twice', { ...body, topics: ['rounds', 'rounds'] }],
    ];
    for (const [why, payload] of bad) {
      const res = await call('POST', '/api/push/subscriptions', maya, payload);
      expect(res.statusCode, why).toBe(400);
    }
    const huge = await call('POST', '/api/push/subscriptions', maya, {
      ...body,
      padding: 'x'.repeat(5_000),
    });
    expect(huge.statusCode).toBe(413);
    const hugeDelete = await call('DELETE', '/api/push/subscriptions', maya, {
      endpoint: 'x'.repeat(5_000),
    });
    expect(hugeDelete.statusCode).toBe(413);
    expect(
      await db()
        .selectFrom('push_subscriptions')
        .select('id')
        .where('user_id', '=', maya.id)
        .execute(),
    ).toEqual([]);
  });

  it(`keeps at most ${PUSH_SUBSCRIPTIONS_MAX} subscriptions per member: a new one replaces the oldest`, async () => {
    const devices = Array.from({ length: PUSH_SUBSCRIPTIONS_MAX + 2 }, () => service.subscribe());
    for (const device of devices)
      expect((await subscribe(maya, device, ['rounds'])).statusCode).toBe(200);
    const kept = (await call('GET', '/api/push/subscriptions', maya)).json()
      .subscriptions as Array<{
      endpoint: string;
    }>;
    expect(kept.map((s) => s.endpoint)).toEqual(
      devices
        .slice(2)
        .reverse()
        .map((d) => d.endpoint),
    );
    // Re-saving one changes its topics, never adds a row.
    expect((await subscribe(maya, devices[5]!, ['credits'])).json().subscriptions).toHaveLength(
      PUSH_SUBSCRIPTIONS_MAX,
    );
  });

  it('a subscription the service reports gone is removed; another failure is retried until it goes through', async () => {
    const { id: ledgerId } = await db()
      .selectFrom('reward_ledger')
      .select('id')
      .where('user_id', '=', rosa.id)
      .where('kind', '=', 'referral')
      .executeTakeFirstOrThrow();
    const queue = () =>
      sql`SELECT queue_notification(${rosa.id}, 'credits', 'credit', ${JSON.stringify({ ledgerId })}::jsonb)`.execute(
        db(),
      );
    const flaky = service.subscribe();
    expect((await subscribe(rosa, flaky, ['credits'])).statusCode).toBe(200);
    service.answer(phone.id, 410);
    service.answer(flaky.id, 503);
    const before = pushesTo(flaky).length;
    await queue();
    await deliver();
    expect(
      await db()
        .selectFrom('push_subscriptions')
        .select('id')
        .where('endpoint', '=', phone.endpoint)
        .execute(),
    ).toEqual([]);
    const waiting = await db()
      .selectFrom('push_deliveries as d')
      .innerJoin('push_subscriptions as s', 's.id', 'd.subscription_id')
      .select(['d.status', 'd.attempts', 'd.last_error'])
      .where('s.endpoint', '=', flaky.endpoint)
      .executeTakeFirstOrThrow();
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1 });
    expect(waiting.last_error).toMatch(/503/);
    // Due again once its backoff passes; the service is back.
    service.answer(flaky.id, 201);
    await sql`UPDATE push_deliveries SET next_attempt_at = now() WHERE status = 'pending'`.execute(
      db(),
    );
    await deliver();
    expect(pushesTo(flaky)).toHaveLength(before + 1);
    // The worker running on its own delivers too.
    t.services.push.start();
    await queue();
    await until(() => pushesTo(flaky).length === before + 2);
    await t.services.push.stop();
  });

  it('unsubscribing removes the member’s own subscription; nothing more is queued for it', async () => {
    const res = await call('DELETE', '/api/push/subscriptions', rosa, {
      endpoint: laptop.endpoint,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().subscriptions.map((s: { endpoint: string }) => s.endpoint)).not.toContain(
      laptop.endpoint,
    );
    await sql`SELECT queue_notification(${rosa.id}, 'rounds', 'round', '{"round":1}'::jsonb)`.execute(
      db(),
    );
    expect(
      await db()
        .selectFrom('push_deliveries')
        .select('id')
        .where('status', '=', 'pending')
        .execute(),
    ).toHaveLength(0);
  });
});
