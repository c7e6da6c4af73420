// Notifications on this device: the plain states where push cannot work (an iPhone outside the
// home-screen app, a browser without push, notifications blocked), and turning it on (permission,
// a subscription made with the server's key, saved with both topics), a topic off, and off again;
// a browser whose subscription another member saved subscribes anew.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../../../test-network';
import { PushSection } from './push-section';

const KEY = `B${'A'.repeat(86)}`;
const P256DH = `B${'C'.repeat(86)}`;
const AUTH = 'D'.repeat(22);

interface FakeSubscription {
  endpoint: string;
  options: { applicationServerKey: ArrayBuffer };
  toJSON(): { endpoint: string; keys: { p256dh: string; auth: string } };
  unsubscribe: () => Promise<boolean>;
}

function fakeBrowser(
  permission: NotificationPermission,
  answer: NotificationPermission = 'granted',
) {
  let current: FakeSubscription | null = null;
  let made = 0;
  const unsubscribed: string[] = [];
  const pushManager = {
    getSubscription: async () => current,
    subscribe: vi.fn(async (options: { applicationServerKey: Uint8Array }) => {
      made += 1;
      const endpoint = `https://push.example.org/${made}`;
      const sub: FakeSubscription = {
        endpoint,
        options: { applicationServerKey: options.applicationServerKey.slice().buffer },
        toJSON: () => ({ endpoint, keys: { p256dh: `${P256DH}=`, auth: AUTH } }),
        unsubscribe: async () => {
          unsubscribed.push(endpoint);
          current = null;
          return true;
        },
      };
      current = sub;
      return sub;
    }),
  };
  const notification = {
    permission,
    requestPermission: vi.fn(async () => {
      notification.permission = answer;
      return answer;
    }),
  };
  vi.stubGlobal('Notification', notification);
  vi.stubGlobal('PushManager', function PushManager() {});
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { getRegistration: async () => ({ pushManager }) },
  });
  return { pushManager, notification, unsubscribed };
}

afterEach(() => {
  vi.unstubAllGlobals();
  delete (navigator as { serviceWorker?: unknown }).serviceWorker;
  vi.restoreAllMocks();
});

function show() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <PushSection />
    </QueryClientProvider>,
  );
  return screen.getByRole('region', { name: 'On this device' });
}

const laptop = {
  endpoint: 'https://push.example.org/laptop',
  topics: ['rounds'],
  label: 'Firefox on Linux',
  createdAt: '2026-11-20T10:00:00.000Z',
  lastSuccessAt: null,
};

describe('notifications on this device', () => {
  it('on an iPhone outside the home-screen app, says the app must be added first', () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Mobile/15E148 Safari/604.1',
    );
    expect(show().textContent).toContain(
      'Notifications on this device need the app added to your home screen',
    );
  });

  it('in a browser without push, says so', () => {
    expect(show().textContent).toContain('This browser cannot show notifications from the app.');
  });

  it('when notifications are blocked, says how to allow them', () => {
    fakeBrowser('denied');
    expect(show().textContent).toContain('Notifications are blocked for this app in this browser');
  });

  it('turns on with both topics, a topic off, and off again', async () => {
    const browser = fakeBrowser('default');
    let saved = [laptop];
    const bodies: Array<[string, unknown]> = [];
    stubFetch((path, init) => {
      if (path === '/api/push/key') return { publicKey: KEY };
      if (path !== '/api/push/subscriptions') return undefined;
      const method = init?.method ?? 'GET';
      if (method === 'GET') return { subscriptions: saved };
      const body = JSON.parse(String(init?.body)) as { endpoint: string; topics?: string[] };
      bodies.push([method, body]);
      saved =
        method === 'POST'
          ? [
              {
                ...laptop,
                endpoint: body.endpoint,
                topics: body.topics!,
                label: 'Chrome on Linux',
              },
              laptop,
            ]
          : [laptop];
      return { subscriptions: saved };
    });
    const region = within(show());
    const on = await region.findByRole('switch', { name: 'Notifications on this device' });
    expect((on as HTMLInputElement).checked).toBe(false);
    expect(region.getByText('Also on another device: Firefox on Linux.')).toBeTruthy();

    fireEvent.click(on);
    const rounds = await region.findByRole('switch', { name: 'New rounds' });
    expect(browser.notification.requestPermission).toHaveBeenCalledOnce();
    const asked = browser.pushManager.subscribe.mock.calls[0]![0] as {
      userVisibleOnly: boolean;
      applicationServerKey: Uint8Array;
    };
    expect(asked.userVisibleOnly).toBe(true);
    expect(asked.applicationServerKey).toHaveLength(65);
    expect(bodies).toEqual([
      [
        'POST',
        {
          endpoint: 'https://push.example.org/1',
          keys: { p256dh: P256DH, auth: AUTH },
          topics: ['credits', 'rounds'],
        },
      ],
    ]);
    expect((on as HTMLInputElement).checked).toBe(true);
    expect((rounds as HTMLInputElement).checked).toBe(true);

    fireEvent.click(rounds);
    await waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[1]).toEqual(['POST', expect.objectContaining({ topics: ['credits'] })]);
    await waitFor(() =>
      expect((region.getByRole('switch', { name: 'New rounds' }) as HTMLInputElement).checked).toBe(
        false,
      ),
    );
    // The same subscription: no second one was made.
    expect(browser.pushManager.subscribe).toHaveBeenCalledOnce();

    fireEvent.click(region.getByRole('switch', { name: 'Notifications on this device' }));
    await waitFor(() => expect(region.queryByRole('switch', { name: 'New rounds' })).toBeNull());
    expect(bodies[2]).toEqual(['DELETE', { endpoint: 'https://push.example.org/1' }]);
    expect(browser.unsubscribed).toEqual(['https://push.example.org/1']);
  });

  it('a permission not given changes nothing', async () => {
    const browser = fakeBrowser('default', 'denied');
    stubFetch((path) => (path === '/api/push/subscriptions' ? { subscriptions: [] } : undefined));
    const region = within(show());
    fireEvent.click(await region.findByRole('switch', { name: 'Notifications on this device' }));
    await region.findByText(/Notifications are blocked/);
    expect(browser.pushManager.subscribe).not.toHaveBeenCalled();
  });

  it('a subscription another member saved on this browser is replaced by a new one', async () => {
    const browser = fakeBrowser('granted');
    const posted: string[] = [];
    stubFetch((path, init) => {
      if (path === '/api/push/key') return { publicKey: KEY };
      if (init?.method === 'POST') {
        const { endpoint, topics } = JSON.parse(String(init.body)) as {
          endpoint: string;
          topics: string[];
        };
        posted.push(endpoint);
        return posted.length === 1
          ? json({ code: 'forbidden', message: 'You are not allowed to do that.' }, 403)
          : { subscriptions: [{ ...laptop, endpoint, topics }] };
      }
      return {
        subscriptions:
          posted.length > 1
            ? [{ ...laptop, endpoint: posted[1], topics: ['credits', 'rounds'] }]
            : [],
      };
    });
    const region = within(show());
    fireEvent.click(await region.findByRole('switch', { name: 'Notifications on this device' }));
    await region.findByRole('switch', { name: 'New rounds' });
    expect(posted).toEqual(['https://push.example.org/1', 'https://push.example.org/2']);
    expect(browser.unsubscribed).toEqual(['https://push.example.org/1']);
  });
});
