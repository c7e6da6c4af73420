// What a signed-in member's browser receives from the server, for unit tests (which have no server).
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, useLocation, type Location } from 'react-router';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { createQueryClient, Providers } from './app/providers';
import { AppRoutes } from './app/routes';
import { json, stubFetch } from './test-network';

export const member = {
  id: 'u1',
  email: 'ada@example.test',
  username: 'ada',
  fullName: 'Ada Lovelace',
  referralCode: 'ABCD2345',
  referralLink: 'http://localhost/r/ABCD2345',
  caps: {
    registration: 200,
    referrals: 150,
    careActions: 0,
    total: 350,
    converted: 0,
    convertible: 0,
  },
  wallet: {
    address: '0x' + '1'.repeat(40),
    keystore: '{}',
    lockedByOldPassword: false,
    phraseSaved: true,
  },
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
/** GET /api/claim/sponsored where the community pays no claim fees (the dashboard always asks). */
export const noSponsorship = {
  available: false,
  reason: 'This community does not pay claim fees for its members.',
  latest: null,
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
  conversion: { open: true, capsPerReme: '6.028' },
};

/** A sign-up gate challenge as the server signs one, made cheap (1 PBKDF2 iteration, answer 3) so
 * the forms' solver finishes at once; the web never checks a signature, only the server does. */
export const GATE_ANSWER = 3;
export function gateChallengeFor(form: string) {
  return {
    parameters: {
      algorithm: 'PBKDF2/SHA-256',
      cost: 1,
      data: { difficulty: 'base', form },
      expiresAt: 4102444800,
      keyLength: 32,
      keyPrefix: '0352791facb8197f5aa6439ed6c24592',
      keySignature: '7f184b54f5b3c60368bac5a4e47a7d4affc027f7b8962ff5dd12cdc16484daf2',
      nonce: '8a48f04f45d3d2051fca3cd4b1aead60',
      salt: '52abce82ac62ca72361ccea7c0bc46fa',
    },
    signature: '75da756e9e823805a209717cf0d5321cd0259d9833086758fa35af6e4cfcd3a6',
  };
}
const GATE_CHALLENGE_PATH = /^\/api\/signup-gate\/challenge\?form=(\w+)$/;

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

const unauthorized = () => json({ code: 'unauthorized', message: 'User not authenticated' }, 401);

/** A visitor's browser (no session): /api/me answers 401, /api/config the public config, the
 * sign-up gate a challenge for the asked form, and `answers` serve other exact paths; any other
 * request fails the test (test-network.ts). Returns every request made, as "METHOD path". */
export function serveVisitor(answers: Record<string, () => unknown> = {}) {
  const asked: string[] = [];
  vi.stubGlobal('EventSource', SilentEventSource);
  stubFetch((path, init) => {
    asked.push(`${init?.method ?? 'GET'} ${path}`);
    const answer = answers[path]?.();
    if (answer !== undefined) return answer;
    if (path === '/api/me' || path.startsWith('/api/me?')) return unauthorized();
    if (path === '/api/config') return links;
    const gate = GATE_CHALLENGE_PATH.exec(path);
    if (gate) return gateChallengeFor(gate[1]!);
    return undefined;
  });
  return asked;
}

/** A signed-out browser with nothing else served. */
export const signedOut = () => void serveVisitor();

/** Every request the app made, as "METHOD path". */
export const requests: string[] = [];

/** The server as a signed-in member's browser sees it (unit tests have no server): /api/me answers
 * from `details()` (or fails when that returns a Response), the paths every member screen asks for
 * answer as `memberDefaults` says, and `answers` serve other exact paths (or override those); any
 * other request fails the test (test-network.ts). */
export function serveMember(
  details: () => unknown = () => member,
  answers: Record<string, () => unknown> = {},
) {
  requests.length = 0;
  meCacheControl.length = 0;
  eventSources.length = 0;
  localStorage.setItem('allowed', 'true');
  vi.stubGlobal('EventSource', SilentEventSource);
  stubFetch((path, init) => {
    requests.push(`${init?.method ?? 'GET'} ${path}`);
    if (path === '/api/me')
      meCacheControl.push(new Headers(init?.headers).get('cache-control') ?? '');
    const answer = answers[path]?.();
    if (answer !== undefined) return answer;
    return memberDefaults(path, details);
  });
}

/** The member's notification choices as a new member's are (claim for me on, every mail). */
export const notificationChoices = {
  credits: 'instant',
  rounds: true,
  claimForMe: true,
  claimForMeAvailable: true,
};

/** The member's activity as the server answers it: a friend joined, and their own joining. */
export const memberActivity = {
  items: [
    {
      id: 'ledger-2',
      kind: 'referral',
      at: '2026-11-20T10:00:00.000Z',
      caps: 100,
      reme: '100000000000000000000',
      level: 1,
      friend: 'Bob',
      description: null,
      round: null,
      held: false,
      releaseAt: null,
    },
    {
      id: 'ledger-1',
      kind: 'joined',
      at: '2026-11-19T09:00:00.000Z',
      caps: 200,
      reme: '200000000000000000000',
      level: null,
      friend: null,
      description: null,
      round: null,
      held: false,
      releaseAt: null,
    },
  ],
  unread: 0,
  seenAt: '2026-11-21T00:00:00.000Z',
};

/** What every member screen asks for, served unless a test answers the path itself. */
function memberDefaults(path: string, details: () => unknown): unknown {
  // The sign-up screens open for a signed-in browser too, and fetch their gate's challenge.
  const gate = GATE_CHALLENGE_PATH.exec(path);
  if (gate) return gateChallengeFor(gate[1]!);
  switch (path) {
    case '/api/me':
    case '/api/me?firstTimeReferral=true':
      return details();
    case '/api/config':
      return links;
    case '/api/referrals/network':
      return network;
    case '/api/claim/sponsored':
      return noSponsorship;
    case '/api/rewards/held':
    case '/api/conversions':
      return { items: [] };
    case '/api/activity':
      return memberActivity;
    case '/api/notifications/settings':
      return notificationChoices;
    case '/api/account/passkeys':
      return { passkeys: [] };
    case '/api/account/passkeys/wallet-keys':
      return { keys: [] };
    case '/auth/sign-out':
      return {};
    case '/api/handoff':
      return { url: 'https://example.org/c?authtoken=x', expiresInSeconds: 60 };
    default:
      return undefined;
  }
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

/** A form's text field, by its label. */
export const field = (label: string) => screen.getByLabelText(label, { selector: 'input' });

/** Types `value` into the field labelled `label`. */
export const fill = (label: string, value: string) =>
  fireEvent.change(field(label), { target: { value } });

/** The message is announced, sits under its field, and the field is aria-invalid and described by
 * it (and by its hint, when it has one). Other fields may have their own messages at the same time. */
export async function expectFieldError(label: string, text: string) {
  await waitFor(() => expect(field(label).getAttribute('aria-invalid')).toBe('true'));
  const described = (field(label).getAttribute('aria-describedby') ?? '').split(' ');
  const messages = described
    .map((id) => document.getElementById(id))
    .filter((element) => element?.getAttribute('role') === 'alert');
  expect(messages.map((m) => m!.textContent)).toEqual([text]);
  expect(screen.getAllByRole('alert')).toContain(messages[0]);
}
