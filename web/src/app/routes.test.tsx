import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient, Providers } from './providers';
import { routes } from './routes';

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <Providers client={createQueryClient()}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return router;
}

const member = {
  id: 'u1',
  email: 'ada@example.test',
  username: 'ada',
  fullName: 'Ada Lovelace',
  referralCode: 'ABCD2345',
  referralLink: 'http://localhost/r/ABCD2345',
  caps: { registration: 200, referrals: 150, careActions: 0, total: 350 },
  wallet: { address: '0x' + '1'.repeat(40), keystore: '{}' },
  tokens: {
    entitled: '0', incoming: '0', distributed: '0', claimed: '0', forClaiming: '0', claimSplit: { signup: '0', referral: '0' },
    signupTokens: '0', remeHeld: '0', ethBalance: '0', remePrice: '0.10',
  },
};
const network = { success: true, data: { hierarchy: [], level_counts: { level1: 0, level2: 0, level3: 0 }, total_network_size: 0 } };
const links = {
  links: { mainSite: 'https://example.org', terms: 'https://example.org/t', help: 'https://example.org/h', market: 'https://example.org/m', communityApp: 'https://example.org/c' },
  chain: { chainId: 31337, tokenAddress: '0x' + '2'.repeat(40), distributorAddress: '0x' + '3'.repeat(40), explorerUrl: null, exchangeUrl: 'https://example.org/x' },
};

/** The server as a signed-in member's browser sees it (unit tests have no server). */
function signedIn() {
  localStorage.setItem('allowed', 'true');
  vi.stubGlobal('fetch', async (url: string) => {
    const body = String(url).startsWith('/api/me') ? member : String(url).startsWith('/api/referrals/network') ? network : links;
    return new Response(JSON.stringify(body), { status: 200 });
  });
}

function signedOut() {
  vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ code: 'unauthorized', message: 'User not authenticated' }), { status: 401 }));
}

afterEach(() => vi.unstubAllGlobals());

describe('routing rules that need no account (SPEC §2)', () => {
  it.each(['/r/ABC123', '/signup/ABC123'])('%s redirects to /?ref={code}', async (path) => {
    const router = renderAt(path);
    signedOut();
    expect(await screen.findByText('ABC123')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Create Account' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
    expect(router.state.location.search).toBe('?ref=ABC123');
  });

  it('/refferal sets the refferal flag on first arrival and redirects to /', async () => {
    signedOut();
    const router = renderAt('/refferal');
    await screen.findByRole('heading', { name: 'Welcome Back' });
    expect(localStorage.getItem('refferal')).toBe('true');
    expect(router.state.location.pathname).toBe('/');
  });

  it('/refferal leaves an existing flag alone (only the first arrival sets it)', async () => {
    signedOut();
    localStorage.setItem('refferal', 'false');
    renderAt('/refferal');
    await screen.findByRole('heading', { name: 'Welcome Back' });
    expect(localStorage.getItem('refferal')).toBe('false');
  });

  it('/?confirmed=true goes to /dashboard', async () => {
    signedIn();
    const router = renderAt('/?confirmed=true');
    await screen.findByRole('heading', { name: 'Hello, Ada Lovelace' });
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('member pages need a session and the allowed flag: without them, the start page', async () => {
    signedOut();
    localStorage.setItem('allowed', 'true');
    const router = renderAt('/dashboard');
    await screen.findByRole('heading', { name: 'Welcome Back' });
    expect(router.state.location.pathname).toBe('/');
    cleanupAndReset();
    signedIn();
    localStorage.removeItem('allowed');
    const again = renderAt('/rcb');
    await screen.findByRole('heading', { name: 'Welcome Back' });
    expect(again.state.location.pathname).toBe('/');
  });

  it('an unknown path shows the not-found page', async () => {
    renderAt('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
  });

  it.each([
    ['/signup', 'Create Account'],
    ['/register', 'Set up your wallet'],
    // Without the state the claim flow passes (ethBalance, txFee), both return to the dashboard.
    ['/claim', 'Hello, Ada Lovelace'],
    ['/insufficient-balance', 'Hello, Ada Lovelace'],
    ['/reset-password?token=t&email=a%40b.co', 'Choose a new password'],
    ['/dashboard', 'Hello, Ada Lovelace'],
    ['/rcb', 'Hi Ada Lovelace, grow your community'],
    ['/community-builder', 'Ada Lovelace'],
    ['/convert-caps', 'Convert CAPs'],
  ])('%s shows the screen that names itself', async (path, heading) => {
    signedIn();
    renderAt(path);
    expect(await screen.findByRole('heading', { name: heading })).toBeTruthy();
  });
});

function cleanupAndReset() {
  cleanup();
  vi.unstubAllGlobals();
}
