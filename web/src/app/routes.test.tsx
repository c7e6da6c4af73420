import { cleanup, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { appTestHooks, renderAt, serveMember, serveVisitor, signedOut } from '../test-fixtures';

appTestHooks();

describe('routing rules that need no account', () => {
  it.each(['/r/ABC123', '/signup/ABC123'])('%s redirects to /?ref={code}', async (path) => {
    serveVisitor({ '/api/referrals/codes/ABC123': () => ({ valid: true }) });
    const router = renderAt(path);
    expect(await screen.findByText('ABC123')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Create your account' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
    expect(router.state.location.search).toBe('?ref=ABC123');
  });

  it('/refferal sets the refferal flag on first arrival and redirects to /', async () => {
    signedOut();
    const router = renderAt('/refferal');
    await screen.findByRole('heading', { name: 'Welcome back' });
    expect(localStorage.getItem('refferal')).toBe('true');
    expect(router.state.location.pathname).toBe('/');
  });

  it('/refferal leaves an existing flag alone (only the first arrival sets it)', async () => {
    signedOut();
    localStorage.setItem('refferal', 'false');
    renderAt('/refferal');
    await screen.findByRole('heading', { name: 'Welcome back' });
    expect(localStorage.getItem('refferal')).toBe('false');
  });

  it('/?confirmed=true goes to /dashboard', async () => {
    serveMember();
    const router = renderAt('/?confirmed=true');
    await screen.findByRole('heading', { name: 'Hello, Ada Lovelace' });
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('member pages need a session and the allowed flag: without them, the start page', async () => {
    // The flag without a session: the app signs out what is left of one.
    serveVisitor({ '/auth/sign-out': () => ({ success: true }) });
    localStorage.setItem('allowed', 'true');
    const router = renderAt('/dashboard');
    await screen.findByRole('heading', { name: 'Welcome back' });
    expect(router.state.location.pathname).toBe('/');
    cleanupAndReset();
    serveMember();
    localStorage.removeItem('allowed');
    const again = renderAt('/rcb');
    await screen.findByRole('heading', { name: 'Welcome back' });
    expect(again.state.location.pathname).toBe('/');
  });

  it('an unknown path shows the not-found page', async () => {
    renderAt('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
  });

  it.each([
    ['/signup', 'Create your account'],
    ['/register', 'Set up your wallet'],
    // Without the state the claim flow passes (fromDashboard, txFee), both return to the dashboard.
    ['/claim', 'Hello, Ada Lovelace'],
    ['/insufficient-balance', 'Hello, Ada Lovelace'],
    ['/reset-password?token=t&email=a%40b.co', 'Choose a new password'],
    ['/dashboard', 'Hello, Ada Lovelace'],
    ['/rcb', 'Hi Ada Lovelace, grow your community'],
    ['/community-builder', 'Ada Lovelace'],
    ['/convert-caps', 'Convert CAPs'],
  ])('%s shows the screen that names itself', async (path, heading) => {
    serveMember();
    renderAt(path);
    expect(await screen.findByRole('heading', { name: heading })).toBeTruthy();
  });
});

function cleanupAndReset() {
  cleanup();
  vi.unstubAllGlobals();
}
