// A reload without a connection: the last dashboard, said to be from when it was read, instead of
// the sign-in form; read again once the connection is back; forgotten at logout; never the keystore.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { lastDetails, rememberDetails } from '../lib/offline-details';
import { appTestHooks, meCalls, member, renderAt, serveMember } from '../test-fixtures';

appTestHooks();

function serveWithConnection(state: { online: boolean }) {
  serveMember(undefined, {
    '/api/me': () => {
      if (!state.online) throw new TypeError('Failed to fetch');
      return undefined; // the member's default answer
    },
  });
}

describe('offline', () => {
  it('a reload without a connection shows the last dashboard, from when it was read, until the connection is back', async () => {
    localStorage.setItem('allowed', 'true');
    rememberDetails(member);
    const kept = JSON.parse(localStorage.getItem('last-details')!) as {
      details: { wallet: { keystore: string } };
    };
    expect(kept.details.wallet.keystore).toBe('');
    const connection = { online: false };
    serveWithConnection(connection);
    renderAt('/dashboard');
    expect(await screen.findByRole('heading', { name: 'Hello, Ada Lovelace' })).toBeTruthy();
    expect((await screen.findByTestId('offline-notice')).textContent).toMatch(
      /^You’re offline — figures from \d{1,2} \w{3} \d{4}, \d\d:\d\d\. They update when you’re back online\.$/,
    );
    expect(screen.queryByRole('heading', { name: 'Welcome back' })).toBeNull();
    connection.online = true;
    fireEvent.focus(window);
    await waitFor(() => expect(screen.queryByTestId('offline-notice')).toBeNull());
    expect(screen.getByRole('heading', { name: 'Hello, Ada Lovelace' })).toBeTruthy();
  });

  it('the figures shown offline are not saved again as if read now', async () => {
    localStorage.setItem('allowed', 'true');
    rememberDetails(member);
    const kept = localStorage.getItem('last-details')!;
    const earlier = { ...(JSON.parse(kept) as object), savedAt: '2026-11-20T10:00:00.000Z' };
    localStorage.setItem('last-details', JSON.stringify(earlier));
    serveWithConnection({ online: false });
    renderAt('/dashboard');
    await screen.findByTestId('offline-notice');
    expect(lastDetails()?.savedAt).toBe('2026-11-20T10:00:00.000Z');
  });

  it('the dashboard keeps the figures it reads, written again only when they change', async () => {
    let caps = member.caps;
    serveMember(() => ({ ...member, caps }));
    renderAt('/dashboard');
    await screen.findByRole('heading', { name: 'Hello, Ada Lovelace' });
    await waitFor(() => expect(localStorage.getItem('last-details')).not.toBeNull());
    const first = localStorage.getItem('last-details');
    const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
    await settle(); // a write now would carry another time
    const reads = meCalls();
    fireEvent.focus(window);
    await waitFor(() => expect(meCalls()).toBe(reads + 1));
    await settle();
    expect(localStorage.getItem('last-details')).toBe(first);
    caps = { ...member.caps, careActions: 25, total: member.caps.total + 25 };
    fireEvent.focus(window);
    await waitFor(() => expect(lastDetails()?.details.caps.total).toBe(member.caps.total + 25));
    expect(lastDetails()!.savedAt > (JSON.parse(first!) as { savedAt: string }).savedAt).toBe(true);
  });

  it('without figures kept, a lost connection signs out to the start page as before (no loop back)', async () => {
    localStorage.setItem('allowed', 'true');
    localStorage.removeItem('last-details');
    serveWithConnection({ online: false });
    const router = renderAt('/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    await waitFor(() => expect(localStorage.getItem('allowed')).toBeNull());
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeTruthy();
  });

  it('logout forgets the figures kept', async () => {
    serveMember();
    renderAt('/dashboard');
    await screen.findByRole('heading', { name: 'Hello, Ada Lovelace' });
    await waitFor(() => expect(localStorage.getItem('last-details')).not.toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    await screen.findByRole('heading', { name: 'Welcome back' });
    expect(localStorage.getItem('last-details')).toBeNull();
  });
});
