import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routes } from './routes';

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

describe('routing rules that need no account (SPEC §2)', () => {
  it.each(['/r/ABC123', '/signup/ABC123'])('%s redirects to /?ref={code}', async (path) => {
    const router = renderAt(path);
    expect(await screen.findByText('Referral code: ABC123')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
    expect(router.state.location.search).toBe('?ref=ABC123');
  });

  it('/refferal sets the refferal flag on first arrival and redirects to /', async () => {
    const router = renderAt('/refferal');
    await screen.findByRole('heading', { name: 'Welcome Back' });
    expect(localStorage.getItem('refferal')).toBe('true');
    expect(router.state.location.pathname).toBe('/');
  });

  it('/refferal leaves an existing flag alone (only the first arrival sets it)', async () => {
    localStorage.setItem('refferal', 'false');
    renderAt('/refferal');
    await screen.findByRole('heading', { name: 'Welcome Back' });
    expect(localStorage.getItem('refferal')).toBe('false');
  });

  it('/?confirmed=true goes to /dashboard', async () => {
    const router = renderAt('/?confirmed=true');
    await screen.findByRole('heading', { name: 'Wallet dashboard' });
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('an unknown path shows the not-found page', async () => {
    renderAt('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
  });

  it.each([
    ['/signup', 'Welcome Back'],
    ['/register', 'Set up your wallet'],
    ['/mnemonic', 'Your recovery phrase'],
    ['/claim', 'Confirm the transaction'],
    ['/insufficient-balance', 'ETH balance insufficient'],
    ['/recover-wallet', 'Recover your wallet'],
    ['/reset-password', 'Choose a new password'],
    ['/dashboard', 'Wallet dashboard'],
    ['/rcb', 'Community Builder'],
    ['/community-builder', 'Community builder'],
    ['/convert-caps', 'Convert CAPs'],
  ])('%s shows the screen that names itself', async (path, heading) => {
    renderAt(path);
    expect(await screen.findByRole('heading', { name: heading })).toBeTruthy();
  });
});
