// Web push (issue 30): a member's device subscribed to push receives the round's notification when
// the operator publishes it, from a push service on 127.0.0.1 this journey runs, which verifies the
// VAPID signature and decrypts the payload (server/src/testing/push-service.ts); the app's service
// worker shows that payload as a notification, and its click opens the claim screen.
//
// Chromium here cannot subscribe with a push service of its own: Playwright's browser contexts are
// off the record, and pushManager.subscribe rejects there (AbortError, logging "Chrome currently
// does not support the Push API in incognito mode"). So the subscription the member's page
// registers — through the app's own API call, with its session, as the account page's PushSection
// does — is the local push service's; and what that service received is handed to the page's
// service worker with the DevTools protocol (ServiceWorker.deliverPushMessage), as the browser
// would hand it a push.
import { joinThroughApi, newEmail } from '../fixtures/member';
import { opsNoConfirm } from '../fixtures/ops';
import { noConfirmURL } from '../fixtures/servers';
import { expect, test } from '../fixtures/test';
import { startPushService, type PushService } from '../../server/src/testing/push-service';

test.use({ baseURL: noConfirmURL, permissions: ['notifications'] });

let service: PushService;
test.beforeAll(async () => {
  service = await startPushService();
});
test.afterAll(async () => {
  await service?.close();
});

test('a round reaches the subscribed device as a notification that opens the claim screen', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await joinThroughApi(page, { email: newEmail('push'), password: 'Caring-Friends-9' });
  await page.goto('/dashboard');

  // The app's service worker (production build) runs; the server hands out its key.
  const key = await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    return (await (await fetch('/api/push/key')).json()) as { publicKey: string };
  });
  expect(Buffer.from(key.publicKey, 'base64url')).toHaveLength(65);

  // The device's subscription, registered with the page's own call and session.
  const device = service.subscribe();
  const saved = await page.evaluate(
    async (body) => {
      const res = await fetch('/api/push/subscriptions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as { subscriptions: unknown[] } };
    },
    { endpoint: device.endpoint, keys: device.keys, topics: ['credits', 'rounds'] },
  );
  expect(saved.status).toBe(200);
  expect(saved.body.subscriptions).toEqual([
    expect.objectContaining({ endpoint: device.endpoint, label: 'Chrome on Linux' }),
  ]);

  // The operator publishes a round; the push reaches the device.
  await opsNoConfirm('distribute', '--publish');
  let payload = '';
  await expect(async () => {
    const push = service.received.find(
      (p) => p.id === device.id && /^Round \d+: /.test(JSON.parse(p.text).title),
    );
    expect(push, 'the round push').toBeTruthy();
    expect(push!.vapidKey).toBe(key.publicKey);
    payload = push!.text;
  }).toPass({ timeout: 60_000 });
  const message = JSON.parse(payload) as { title: string; body: string; url: string };
  expect(message).toEqual({
    title: expect.stringMatching(/^Round \d+: 200\.00 REME to claim$/),
    body: expect.stringMatching(/^Round \d+ is out: 200\.00 REME are waiting for your wallet\.$/),
    url: '/claim',
  });
  expect(service.refused).toEqual([]);

  // The browser hands the push to the app's service worker, which shows it. Delivered once the
  // registration's worker is activated; should DevTools' delivery find nothing shown within 5 s (it
  // did once in a loaded CI run: the worker showed no notification at all), it hands the same push
  // again, as a push service redelivers an unacknowledged message, at most three times. What is
  // shown must be this message and nothing else.
  const cdp = await page.context().newCDPSession(page);
  const scope = `${noConfirmURL}/`;
  let registrationId: string | undefined;
  const activated = new Set<string>();
  cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
    const live = registrations.find((r) => !r.isDeleted && r.scopeURL === scope);
    if (live) registrationId = live.registrationId;
  });
  cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
    for (const v of versions) if (v.status === 'activated') activated.add(v.registrationId);
  });
  await cdp.send('ServiceWorker.enable');
  await expect
    .poll(() => registrationId !== undefined && activated.has(registrationId), { timeout: 15_000 })
    .toBe(true);
  const shownNow = () =>
    page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
        title: n.title,
        body: n.body,
        data: n.data as unknown,
      })),
    );
  let deliveries = 0;
  let deliveredAt = 0;
  await expect(async () => {
    const due = Date.now() - deliveredAt > 5_000;
    if (due && deliveries < 3 && (await shownNow()).length === 0) {
      deliveries++;
      deliveredAt = Date.now();
      await cdp.send('ServiceWorker.deliverPushMessage', {
        origin: noConfirmURL,
        registrationId: registrationId!,
        data: payload,
      });
    }
    const shown = await shownNow();
    expect(shown.length, `shown after ${deliveries} deliveries`).toBeGreaterThan(0);
    for (const one of shown)
      expect(one).toEqual({ title: message.title, body: message.body, data: { url: '/claim' } });
  }).toPass({ intervals: [250, 500, 1_000], timeout: 30_000 });

  // Its click (dispatched in the worker: headless Chromium draws no notification to click) opens
  // the claim screen in the app's window.
  const worker = page.context().serviceWorkers()[0]!;
  await worker.evaluate(async () => {
    // The worker's global scope, typed here with what this step uses (the journeys' types are
    // the page's, not a worker's).
    const scope = self as unknown as {
      registration: { getNotifications(): Promise<Notification[]> };
      dispatchEvent(event: Event): boolean;
    };
    const NotificationClick = (globalThis as Record<string, unknown>).NotificationEvent as new (
      type: string,
      init: { notification: Notification },
    ) => Event;
    const [notification] = await scope.registration.getNotifications();
    scope.dispatchEvent(
      new NotificationClick('notificationclick', { notification: notification! }),
    );
  });
  await expect(page).toHaveURL(`${noConfirmURL}/claim`);
  await expect(
    page.getByRole('button', { name: /Claim 200\.00 REME|Complete/ }).first(),
  ).toBeVisible();
});
