// The account page's notification choices: read from the server, each change saved at once and
// kept; a change the server refuses goes back and says why. And the unsubscribe page a mail's link
// opens: it asks before anything changes, then says what stopped; a used link says so.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  appTestHooks,
  notificationChoices,
  renderAt,
  requests,
  serveMember,
} from '../test-fixtures';
import { json } from '../test-network';

appTestHooks();

const security = () => ({ twoFactorEnabled: false, sessions: [] });

describe('notification choices', () => {
  it('shows the member’s choices and saves each change', async () => {
    const bodies: unknown[] = [];
    let saved = { ...notificationChoices };
    serveMember(undefined, {
      '/api/account/security': security,
      '/api/notifications/settings': () => saved,
    });
    renderAt('/account');
    const section = await screen.findByRole('region', { name: 'Notifications' });
    const claimForMe = await within(section).findByRole('switch', {
      name: 'Claim for me each round',
    });
    expect((claimForMe as HTMLInputElement).checked).toBe(true);
    expect(section.textContent).toContain(
      'When a round comes out, the community sends your claim and pays its fee',
    );
    const credits = within(section).getByRole('group', { name: 'Mails about the CAPs you earn' });
    expect(
      within(credits).getByRole('button', { name: 'Instant' }).getAttribute('aria-pressed'),
    ).toBe('true');

    serveMember(undefined, {
      '/api/account/security': security,
      '/api/notifications/settings': () => saved,
    });
    const originalFetch = globalThis.fetch;
    globalThis.fetch = (async (url: RequestInfo | URL, init?: RequestInit) => {
      if (String(url) === '/api/notifications/settings' && init?.method === 'PUT') {
        const change = JSON.parse(String(init.body)) as object;
        bodies.push(change);
        saved = { ...saved, ...change };
        return json(saved);
      }
      return originalFetch(url, init);
    }) as typeof fetch;
    fireEvent.click(within(credits).getByRole('button', { name: 'Weekly' }));
    await waitFor(() => expect(bodies).toEqual([{ credits: 'weekly' }]));
    expect(
      within(credits).getByRole('button', { name: 'Weekly' }).getAttribute('aria-pressed'),
    ).toBe('true');
    fireEvent.click(claimForMe);
    await waitFor(() => expect(bodies).toContainEqual({ claimForMe: false }));
    expect((claimForMe as HTMLInputElement).checked).toBe(false);
  });

  it('a refused change goes back and says why', async () => {
    serveMember(undefined, {
      '/api/account/security': security,
      '/api/notifications/settings': () => notificationChoices,
    });
    renderAt('/account');
    const section = await screen.findByRole('region', { name: 'Notifications' });
    const rounds = await within(section).findByRole('switch', { name: 'Mails about new rounds' });
    const originalFetch = globalThis.fetch;
    globalThis.fetch = (async (url: RequestInfo | URL, init?: RequestInit) =>
      init?.method === 'PUT'
        ? json(
            {
              code: 'rate_limited',
              message: 'Too many attempts. Please wait a moment and try again.',
            },
            429,
          )
        : originalFetch(url, init)) as typeof fetch;
    fireEvent.click(rounds);
    expect(await screen.findByText(/Not saved: Too many attempts/)).toBeTruthy();
    await waitFor(() => expect((rounds as HTMLInputElement).checked).toBe(true));
  });

  it('where the community pays no fees, claim for me is off and says why', async () => {
    serveMember(undefined, {
      '/api/account/security': security,
      '/api/notifications/settings': () => ({
        ...notificationChoices,
        claimForMeAvailable: false,
      }),
    });
    renderAt('/account');
    const section = await screen.findByRole('region', { name: 'Notifications' });
    const claimForMe = await within(section).findByRole('switch', {
      name: 'Claim for me each round',
    });
    expect((claimForMe as HTMLInputElement).disabled).toBe(true);
    expect((claimForMe as HTMLInputElement).checked).toBe(false);
    expect(section.textContent).toContain('This community does not pay claim fees');
  });
});

describe('the unsubscribe page', () => {
  const link = '/unsubscribe?m=u1&t=rounds&v=3&s=abc';

  it('asks first, then unsubscribes with the link and says what stopped', async () => {
    serveMember(undefined, {
      '/api/unsubscribe?m=u1&t=rounds&v=3&s=abc': () => ({ topic: 'rounds' }),
    });
    renderAt(link);
    expect(await screen.findByRole('heading', { name: 'Stop these mails?' })).toBeTruthy();
    expect(requests.some((r) => r.startsWith('POST /api/unsubscribe'))).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    expect(await screen.findByRole('heading', { name: 'You are unsubscribed' })).toBeTruthy();
    expect(requests).toContain('POST /api/unsubscribe?m=u1&t=rounds&v=3&s=abc');
    expect(screen.getByText('No more mails about new rounds and reminders to claim.')).toBeTruthy();
  });

  it('a used link says so and points to the account page', async () => {
    serveMember(undefined, {
      '/api/unsubscribe?m=u1&t=rounds&v=3&s=abc': () =>
        json(
          {
            code: 'unsubscribe_link_used',
            message:
              'This link was already used, or your choices changed since this mail was sent. Your mail choices are on your account page.',
          },
          410,
        ),
    });
    renderAt(link);
    fireEvent.click(await screen.findByRole('button', { name: 'Unsubscribe' }));
    expect(await screen.findByRole('heading', { name: 'This link does not work' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('This link was already used');
    expect(screen.getByRole('link', { name: 'Open your account page' }).getAttribute('href')).toBe(
      '/account',
    );
  });

  it('an incomplete link changes nothing', async () => {
    serveMember();
    renderAt('/unsubscribe?m=u1');
    expect(await screen.findByRole('heading', { name: 'This link does not work' })).toBeTruthy();
    expect(requests.some((r) => r.startsWith('POST'))).toBe(false);
  });
});
