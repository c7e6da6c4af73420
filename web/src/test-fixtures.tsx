// What a signed-in member's browser receives from the server, for unit tests (which have no server).
import { cleanup, render } from '@testing-library/react';
import { MemoryRouter, useLocation, type Location } from 'react-router';
import { afterEach, beforeEach, vi } from 'vitest';
import { createQueryClient, Providers } from './app/providers';
import { AppRoutes } from './app/routes';

export const member = {
  id: 'u1',
  email: 'ada@example.test',
  username: 'ada',
  fullName: 'Ada Lovelace',
  referralCode: 'ABCD2345',
  referralLink: 'http://localhost/r/ABCD2345',
  caps: { registration: 200, referrals: 150, careActions: 0, total: 350 },
  wallet: { address: '0x' + '1'.repeat(40), keystore: '{}', lockedByOldPassword: false },
  tokens: {
    entitled: '0',
    incoming: '0',
    distributed: '0',
    claimed: '0',
    forClaiming: '0',
    claimSplit: { signup: '0', referral: '0' },
    signupTokens: '0',
    remeHeld: '0',
    remePrice: '0.10',
    asOf: { block: 12, ageSeconds: 3, chainReachable: true },
  },
  firstTimeReferral: false,
};
export const network = {
  success: true,
  data: { hierarchy: [], level_counts: { level1: 0, level2: 0, level3: 0 }, total_network_size: 0 },
};
export const links = {
  links: {
    mainSite: 'https://example.org',
    terms: 'https://example.org/t',
    help: 'https://example.org/h',
    market: 'https://example.org/m',
  },
  chain: {
    chainId: 31337,
    tokenAddress: '0x' + '2'.repeat(40),
    distributorAddress: '0x' + '3'.repeat(40),
    explorerUrl: null,
    exchangeUrl: 'https://example.org/x',
  },
  eth: { priceGbp: '2000', testNetwork: true, faucetUrl: null as string | null },
};

/** The server's event stream stays silent in unit tests (happy-dom's would dial a real socket). */
class SilentEventSource extends EventTarget {
  constructor() {
    super();
    eventSources.push(this);
  }
  close() {}
}

/** Every event stream the app opened; a test dispatches the server's events on them. */
export const eventSources: EventTarget[] = [];

/** The `cache-control` header of each /api/me request ('' when none). */
export const meCacheControl: string[] = [];

export function signedOut() {
  vi.stubGlobal(
    'fetch',
    async () =>
      new Response(JSON.stringify({ code: 'unauthorized', message: 'User not authenticated' }), {
        status: 401,
      }),
  );
}

/** Every request the app made, as "METHOD path". */
export const requests: string[] = [];

/** The server as a signed-in member's browser sees it (unit tests have no server): /api/me answers
 * from `details()` (or fails when that returns a Response); `answers` serve other exact paths. */
export function serveMember(
  details: () => unknown = () => member,
  answers: Record<string, () => unknown> = {},
) {
  requests.length = 0;
  meCacheControl.length = 0;
  eventSources.length = 0;
  localStorage.setItem('allowed', 'true');
  vi.stubGlobal('EventSource', SilentEventSource);
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const path = String(url);
    requests.push(`${init?.method ?? 'GET'} ${path}`);
    if (path === '/api/me')
      meCacheControl.push(new Headers(init?.headers).get('cache-control') ?? '');
    const answer = answers[path]?.();
    if (answer !== undefined)
      return answer instanceof Response
        ? answer
        : new Response(JSON.stringify(answer), { status: 200 });
    if (path.startsWith('/api/me')) {
      const body = details();
      return body instanceof Response ? body : new Response(JSON.stringify(body), { status: 200 });
    }
    if (path.startsWith('/auth/sign-out')) return new Response('{}', { status: 200 });
    if (path.startsWith('/api/handoff'))
      return new Response(
        JSON.stringify({ url: 'https://example.org/c?authtoken=x', expiresInSeconds: 60 }),
        { status: 200 },
      );
    if (path.startsWith('/api/referrals/network'))
      return new Response(JSON.stringify(network), { status: 200 });
    return new Response(JSON.stringify(links), { status: 200 });
  });
}

export const meCalls = () => requests.filter((r) => r === 'GET /api/me').length;

/** The whole app, in memory, at `path`; `router.state.location` follows where it navigates. */
export function renderAt(path: string) {
  const router = { state: { location: undefined as unknown as Location } };
  function LocationProbe() {
    router.state.location = useLocation();
    return null;
  }
  render(
    <Providers client={createQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <LocationProbe />
      </MemoryRouter>
    </Providers>,
  );
  return router;
}

/** Hooks for a file of app tests: an optional fake clock, and the app unmounted before the stubs go
 * (so no refresh timer reaches a real network). */
export function appTestHooks({ fakeClock = false } = {}) {
  if (fakeClock) beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
}
