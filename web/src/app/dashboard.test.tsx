import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  eventSources,
  links,
  meCacheControl,
  meCalls,
  member,
  memberActivity,
  renderAt,
  requests,
  serveMember,
  appTestHooks,
} from '../test-fixtures';

appTestHooks({ fakeClock: true });

describe('dashboard refresh ("refreshes every 10 s, on window focus, and when another tab updates the user")', () => {
  it('reloads the details every 10 s', async () => {
    serveMember();
    renderAt('/dashboard');
    await screen.findByRole('heading', { name: 'Hello, Ada Lovelace' });
    const before = meCalls();
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    await waitFor(() => expect(meCalls()).toBe(before + 1));
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    await waitFor(() => expect(meCalls()).toBe(before + 2));
  });

  it('reloads when the server says the data changed, asking it to read the database, not its copy', async () => {
    serveMember();
    renderAt('/dashboard');
    await screen.findByRole('heading', { name: 'Hello, Ada Lovelace' });
    const before = meCalls();
    expect(meCacheControl).not.toContain('no-cache');
    act(() => void eventSources.at(-1)!.dispatchEvent(new Event('changed')));
    await waitFor(() => expect(meCalls()).toBe(before + 1));
    expect(meCacheControl.at(-1)).toBe('no-cache');
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    await waitFor(() => expect(meCalls()).toBe(before + 2));
    expect(meCacheControl.at(-1)).toBe('');
  });

  it('reads the details again when the event stream reconnects (what changed while it was down), not when it first opens', async () => {
    serveMember();
    renderAt('/dashboard');
    await screen.findByRole('heading', { name: 'Hello, Ada Lovelace' });
    const stream = eventSources.at(-1)!;
    act(() => void stream.dispatchEvent(new Event('ready')));
    await act(() => vi.advanceTimersByTimeAsync(100));
    const before = meCalls();
    // The server process went away; the browser reconnected (to another one) on its own.
    act(() => void stream.dispatchEvent(new Event('ready')));
    await waitFor(() => expect(meCalls()).toBe(before + 1));
    expect(meCacheControl.at(-1)).toBe('no-cache');
  });

  it('says what just arrived: a referral credited or REME claimed glows once with its amount, never on opening', async () => {
    let details = member;
    serveMember(() => details);
    renderAt('/dashboard');
    await screen.findByRole('heading', { name: 'Hello, Ada Lovelace' });
    expect(screen.queryByText(/credited|arrived/)).toBeNull();
    details = {
      ...member,
      caps: { ...member.caps, referrals: 250, total: 450 },
      tokens: { ...member.tokens, remeHeld: '200000000000000000000' },
    };
    act(() => void eventSources.at(-1)!.dispatchEvent(new Event('changed')));
    expect(await screen.findByText('+100 CAPs credited')).toBeTruthy();
    expect(screen.getByText('+200 REME arrived')).toBeTruthy();
    expect(screen.getByTestId('caps-balance').textContent).toBe('450');
    expect(screen.getByTestId('reme-balance').textContent).toBe('200.00');
  });

  it('reloads when the window regains focus', async () => {
    serveMember();
    renderAt('/dashboard');
    await screen.findByRole('heading', { name: 'Hello, Ada Lovelace' });
    const before = meCalls();
    act(() => void window.dispatchEvent(new Event('visibilitychange')));
    await waitFor(() => expect(meCalls()).toBe(before + 1));
  });

  it('reloads when the window itself gets focus back (its tab stayed visible behind another window)', async () => {
    serveMember();
    renderAt('/dashboard');
    await screen.findByRole('heading', { name: 'Hello, Ada Lovelace' });
    const before = meCalls();
    act(() => void window.dispatchEvent(new FocusEvent('focus')));
    await waitFor(() => expect(meCalls()).toBe(before + 1));
  });

  it('reloads when another tab updates the cached user, and caches only what it shows', async () => {
    let fullName = 'Ada Lovelace';
    serveMember(() => ({ ...member, fullName }));
    renderAt('/dashboard');
    await screen.findByRole('heading', { name: 'Hello, Ada Lovelace' });
    const cached = JSON.parse(localStorage.getItem('user')!) as Record<string, unknown>;
    expect(cached).toMatchObject({
      email: member.email,
      address: member.wallet.address,
      tokensForClaiming: '0',
    });
    expect(JSON.stringify(cached)).not.toContain('keystore');

    fullName = 'Ada King';
    act(
      () =>
        void window.dispatchEvent(
          new StorageEvent('storage', { key: 'user', newValue: '{"fullName":"Ada King"}' }),
        ),
    );
    expect(await screen.findByRole('heading', { name: 'Hello, Ada King' })).toBeTruthy();
    // Other keys do not trigger a reload.
    const after = meCalls();
    act(
      () =>
        void window.dispatchEvent(
          new StorageEvent('storage', { key: 'rcb-layout', newValue: 'compact' }),
        ),
    );
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(meCalls()).toBe(after);
  });

  it('a failing details call logs the member out', async () => {
    let fail = false;
    serveMember(() =>
      fail
        ? new Response(
            JSON.stringify({
              code: 'internal_error',
              message: 'Something went wrong on our side. Please try again.',
            }),
            { status: 500 },
          )
        : member,
    );
    const router = renderAt('/dashboard');
    await screen.findByRole('heading', { name: 'Hello, Ada Lovelace' });
    fail = true;
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    await screen.findByRole('heading', { name: 'Welcome back' });
    expect(router.state.location.pathname).toBe('/');
    expect(localStorage.getItem('allowed')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    expect(requests).toContain('POST /auth/sign-out');
  });
});

describe('the Convert dialog', () => {
  it('is the Convert page’s form: the same rule and figures, and a real conversion', async () => {
    const care = { ...member.caps, careActions: 100, convertible: 100, total: 450 };
    let converted = false;
    const bodies: unknown[] = [];
    serveMember(() => ({
      ...member,
      caps: converted ? { ...care, converted: 60, convertible: 40 } : care,
    }));
    const { stubFetch } = await import('../test-network');
    const served = (path: string, init?: RequestInit) => {
      requests.push(`${init?.method ?? 'GET'} ${path}`);
      if (path === '/api/conversions' && init?.method === 'POST') {
        bodies.push(JSON.parse(String(init.body)));
        converted = true;
        return {
          conversion: {
            caps: 60,
            reme: '9953550099535500995',
            convertedAt: '2026-11-26T10:00:00.000Z',
            paidInRound: null,
          },
        };
      }
      if (path === '/api/me' || path === '/api/me?firstTimeReferral=true')
        return { ...member, caps: converted ? { ...care, converted: 60, convertible: 40 } : care };
      if (path === '/api/config') return links;
      if (path === '/api/conversions' || path === '/api/rewards/held') return { items: [] };
      if (path === '/api/claim/sponsored') return { available: false, reason: null, latest: null };
      if (path === '/api/activity') return memberActivity;
      return undefined;
    };
    stubFetch(served);
    renderAt('/dashboard');
    fireEvent.click(await screen.findByRole('button', { name: 'Convert CAPs to REME' }));
    const dialog = await screen.findByRole('dialog', { name: 'Convert care CAPs to REME' });
    const modal = within(dialog);
    expect(modal.getByTestId('conversion-rule').textContent).toMatch(
      /CAPs earned for care are yours to convert: 6\.028 CAPs buy 1 REME/,
    );
    const field = modal.getByLabelText('CAPs to convert', {
      selector: 'input',
    }) as HTMLInputElement;
    expect(field.value).toBe('100');
    fireEvent.change(field, { target: { value: '60' } });
    expect(modal.getByTestId('convert-receive').textContent).toBe('9.95 REME');
    expect(modal.getByText('≈ £0.99')).toBeTruthy();
    expect(modal.getByTestId('convert-rate').textContent).toBe(
      '6.028 CAPs per REME (1 CAP ≈ 0.1659 REME)',
    );
    const activityReads = () => requests.filter((r) => r === 'GET /api/activity').length;
    const readBefore = activityReads();
    fireEvent.click(modal.getByRole('button', { name: 'Convert 60 CAPs' }));
    // The dialog closes and a toast says what happened.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(
      await screen.findByText('Converted 60 CAPs → 9.95 REME, paid in the next round'),
    ).toBeTruthy();
    expect(bodies).toEqual([{ caps: 60, requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) }]);
    await waitFor(() =>
      expect(screen.getByTestId('caps-converted').textContent).toBe('60 converted to REME'),
    );
    // The activity is read again with the figures.
    await waitFor(() => expect(activityReads()).toBeGreaterThan(readBefore));
  });

  it('for a member with no care CAPs says where they come from, with no dead button', async () => {
    serveMember();
    renderAt('/dashboard');
    fireEvent.click(await screen.findByRole('button', { name: 'Convert CAPs to REME' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Convert care CAPs to REME' }));
    expect(dialog.getByTestId('nothing-to-convert').textContent).toMatch(
      /no care CAPs to convert yet/,
    );
    expect(dialog.queryByRole('button', { name: /^Convert/ })).toBeNull();
  });
});

describe('a sponsored claim on the dashboard', () => {
  const sponsored = (latest: unknown) => ({
    '/api/claim/sponsored': () => ({ available: true, reason: null, latest }),
  });
  const claim = {
    id: 7,
    round: 1,
    amount: '200000000000000000000',
    txHash: null,
    reason: null,
    updatedAt: '2026-11-23T20:00:00.000Z',
    forMe: false,
  };

  /** The relayer moves the claim on: the server answers `latest`, the page's event stream says so
   * (taken before serving, which forgets the streams), and the card's heading becomes `heading`. */
  async function announce(latest: Record<string, unknown>, heading: string) {
    const stream = eventSources.at(-1)!;
    serveMember(undefined, sponsored(latest));
    act(() => void stream.dispatchEvent(new Event('changed')));
    await waitFor(() =>
      expect(
        within(screen.getByTestId('sponsored-claim')).getByRole('heading', { name: heading }),
      ).toBeTruthy(),
    );
  }

  // While the claim is on its way the REME are still unclaimed on chain.
  const toClaim = () => ({
    ...member,
    tokens: { ...member.tokens, forClaiming: '200000000000000000000' },
  });

  it('follows it from queued to sent to confirmed from the server’s record, and keeps Claim disabled meanwhile', async () => {
    serveMember(toClaim, sponsored({ ...claim, status: 'queued' }));
    renderAt('/dashboard');
    const card = await screen.findByTestId('sponsored-claim');
    expect(within(card).getByRole('heading', { name: 'Processing' })).toBeTruthy();
    expect(within(card).getByText('Queued').getAttribute('aria-current')).toBe('step');
    expect(screen.getByRole('button', { name: /^Claim .* REME$/ }).hasAttribute('disabled')).toBe(
      true,
    );
    await announce(
      { ...claim, status: 'confirmed', txHash: `0x${'ab'.repeat(32)}` },
      'Claim confirmed',
    );
    expect(
      screen.getByText(
        '200.00 REME are now in your wallet. The network fee was paid by your community.',
      ),
    ).toBeTruthy();
    fireEvent.click(
      within(screen.getByTestId('sponsored-claim')).getByRole('button', { name: 'Dismiss' }),
    );
    await waitFor(() => expect(screen.queryByTestId('sponsored-claim')).toBeNull());
  });

  it('one the community sends without the member asking (claim for me) says so, on its way and done', async () => {
    const sent = { ...claim, id: 11, status: 'sent', forMe: true };
    serveMember(toClaim, sponsored(sent));
    renderAt('/dashboard');
    const card = await screen.findByTestId('sponsored-claim');
    expect(within(card).getByRole('heading', { name: 'Claiming for you' })).toBeTruthy();
    expect(card.textContent).toContain(
      'Your community is claiming 200.00 REME for you and pays the network fee. Nothing to do',
    );
    await announce(
      { ...sent, status: 'confirmed', txHash: `0x${'cd'.repeat(32)}` },
      'Claimed for you',
    );
    expect(screen.getByTestId('sponsored-claim').textContent).toContain(
      'Claimed for you200.00 REME are in your wallet. Your community sent the claim for you',
    );
  });

  it('a failed one says why and offers to try again', async () => {
    serveMember(
      undefined,
      sponsored({
        ...claim,
        id: 8,
        status: 'failed',
        reason:
          'A new distribution round was published before this claim was sent. Please claim again.',
      }),
    );
    renderAt('/dashboard');
    const card = await screen.findByTestId('sponsored-claim');
    expect(within(card).getByRole('alert').textContent).toBe(
      'A new distribution round was published before this claim was sent. Please claim again. Nothing was taken from your tokens to claim.',
    );
    expect(within(card).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});

describe('the dashboard as docs/product.md lists it', () => {
  it('shows the wallet shortened with copy, the breakdown, balances, Explore More and the Rewards Hub coming soon', async () => {
    serveMember();
    renderAt('/dashboard');
    await screen.findByRole('heading', { name: 'Hello, Ada Lovelace' });
    expect(screen.getByText('0x1111…1111')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy Your wallet' })).toBeTruthy();
    expect(screen.getByTestId('caps-balance').textContent).toBe('350');
    expect(screen.getByText('£0.10 per REME')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Community Builder/ }).getAttribute('href')).toBe(
      '/rcb',
    );
    // Converting care CAPs is live: the hub is no longer marked coming soon.
    const financeHub = screen.getByRole('link', { name: /Care Finance Hub/ });
    expect(financeHub.getAttribute('href')).toBe('/convert-caps');
    expect(financeHub.textContent).not.toContain('COMING SOON');
    expect((await screen.findByRole('link', { name: /Market/ })).getAttribute('target')).toBe(
      '_blank',
    );
    // The Rewards Hub is marked coming soon like its neighbours, no longer a struck-through button.
    expect(screen.queryByRole('button', { name: 'Rewards Hub' })).toBeNull();
    const hub = screen.getByText(/^Rewards Hub/).closest('[aria-disabled="true"]');
    expect(hub?.textContent).toBe('Rewards Hub Coming Soon');

    // The wallet heads the balance card, always in sight (it was a card of its own,
    // folded by a toggle, when it listed the contracts too).
    const balance = within(screen.getByRole('region', { name: 'Your REME' }));
    expect(balance.getByText('0x1111…1111')).toBeTruthy();
    // Nothing to claim: no Claim button, but what comes next.
    expect(balance.queryByRole('button', { name: /^Claim/ })).toBeNull();
    expect(balance.getByTestId('next-step')).toBeTruthy();
    expect(balance.getByRole('link', { name: 'Invite friends' }).getAttribute('href')).toBe('/rcb');
    expect(balance.getByRole('button', { name: 'Convert CAPs to REME' })).toBeTruthy();
  });

  it('opens the community app with a one-time code from the server, not the session', async () => {
    serveMember();
    const tab = { opener: {} as unknown, location: { href: '' }, close: vi.fn() };
    vi.stubGlobal(
      'open',
      vi.fn(() => tab),
    );
    renderAt('/dashboard');
    fireEvent.click(await screen.findByRole('button', { name: 'Open the Community App' }));
    await waitFor(() => expect(tab.location.href).toBe('https://example.org/c?authtoken=x'));
    expect(tab.opener).toBeNull();
    expect(requests).toContain('POST /api/handoff');
  });
});

describe('the dashboard’s numbers and crypto details for a newcomer', () => {
  it('shows the CAPs total once, and the gauge as progress toward the next milestone, not a full ring', async () => {
    serveMember();
    renderAt('/dashboard');
    await screen.findByRole('heading', { name: 'Hello, Ada Lovelace' });
    expect(screen.getAllByText('350')).toHaveLength(1);
    expect(
      screen.getByRole('img', { name: 'Progress to your next milestone, in CAPs: 350 of 500' }),
    ).toBeTruthy();
    expect(screen.getByText('CAPs to go')).toBeTruthy();
    expect(screen.getByText('Next milestone: 500 CAPs')).toBeTruthy();
    expect(
      screen.getByText(
        'Each friend who joins through your link adds 100 CAPs: about 2 friends would take you to 500.',
      ),
    ).toBeTruthy();
  });

  it('keeps the REME contracts away from the member’s wallet: no Copy, folded under Details for experts', async () => {
    serveMember();
    renderAt('/dashboard');
    await screen.findByRole('heading', { name: 'Hello, Ada Lovelace' });
    const experts = await screen.findByTestId('expert-details');
    expect(experts.tagName).toBe('DETAILS');
    expect(experts.hasAttribute('open')).toBe(false);
    // Whole in the page (shortened in the middle only where it does not fit).
    expect(within(experts).getByTitle(links.chain.tokenAddress).textContent).toBe(
      links.chain.tokenAddress,
    );
    expect(within(experts).getByText(/never send anything to them/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Copy REME token contract/ })).toBeNull();
    expect(screen.getAllByRole('button', { name: /^Copy / })).toHaveLength(1);
  });

  it('links a claim’s transaction to the block explorer instead of showing its raw hash', async () => {
    const txHash = `0x${'ab'.repeat(32)}`;
    serveMember(undefined, {
      '/api/claim/sponsored': () => ({
        available: true,
        reason: null,
        latest: {
          id: 9,
          round: 1,
          amount: '200000000000000000000',
          status: 'confirmed',
          txHash,
          reason: null,
          updatedAt: '2026-11-23T20:00:00.000Z',
          forMe: false,
        },
      }),
      '/api/config': () => ({
        ...links,
        chain: { ...links.chain, explorerUrl: 'https://explorer.example/' },
      }),
    });
    renderAt('/dashboard');
    const card = await screen.findByTestId('sponsored-claim');
    const link = await within(card).findByRole('link', { name: /See it on the block explorer/ });
    expect(link.getAttribute('href')).toBe(`https://explorer.example/tx/${txHash}`);
    expect(within(card).queryByText(txHash)).toBeNull();
    expect(within(card).getByText('0xabab…abab')).toBeTruthy();
  });
});

describe('the appearance, chosen on the account page', () => {
  it('applies to the whole document, persists in rcb-background and rcb-layout, and is in no header', async () => {
    serveMember(undefined, {
      '/api/account/security': () => ({ twoFactorEnabled: false, sessions: [] }),
    });
    renderAt('/account');
    const section = within(await screen.findByRole('region', { name: 'Appearance' }));
    // Nothing chosen: the system's setting (light here).
    expect(section.getByRole('button', { name: 'Match system' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    fireEvent.click(section.getByRole('button', { name: 'Compact' }));
    fireEvent.click(section.getByRole('button', { name: 'Crimson' }));
    expect(document.documentElement.dataset.layout).toBe('compact');
    expect(document.documentElement.dataset.theme).toBe('crimson');
    expect(localStorage.getItem('rcb-layout')).toBe('compact');
    expect(localStorage.getItem('rcb-background')).toBe('crimson');
    fireEvent.click(section.getByRole('button', { name: 'Light' }));
    expect(document.documentElement.dataset.theme).toBe('light');
    fireEvent.click(screen.getByRole('link', { name: 'Back to your wallet' }));
    await screen.findByRole('heading', { name: 'Hello, Ada Lovelace' });
    expect(screen.queryByRole('group', { name: 'Theme' })).toBeNull();
    expect(document.documentElement.dataset.theme).toBe('light');
    localStorage.removeItem('rcb-background');
    localStorage.removeItem('rcb-layout');
  });
});

describe('the "Back up your wallet" task', () => {
  it('stays on the dashboard until the phrase was typed back, and leads to it', async () => {
    serveMember(() => ({ ...member, wallet: { ...member.wallet, phraseSaved: false } }));
    renderAt('/dashboard');
    const task = await screen.findByRole('region', { name: 'Back up your wallet' });
    expect(within(task).getByRole('link', { name: 'Back up now' }).getAttribute('href')).toBe(
      '/recovery-phrase',
    );
  });

  it('is gone once the phrase is saved', async () => {
    serveMember();
    renderAt('/dashboard');
    await screen.findByRole('heading', { name: 'Hello, Ada Lovelace' });
    expect(screen.queryByRole('region', { name: 'Back up your wallet' })).toBeNull();
  });
});

describe('what comes next, in place of a Claim with nothing to claim', () => {
  it('a new member reads when their REME come, and sees no Claim button', async () => {
    serveMember(() => ({
      ...member,
      tokens: { ...member.tokens, forClaiming: '0', incoming: '200000000000000000000' },
    }));
    renderAt('/dashboard');
    const balance = within(await screen.findByRole('region', { name: 'Your REME' }));
    expect(balance.getByTestId('next-step').textContent).toBe(
      'Your 200.00 REME are paid in the next payout. They will show here, ready to claim.',
    );
    expect(balance.queryByRole('button', { name: /^Claim/ })).toBeNull();
  });

  it('with REME to claim, Claim names the amount', async () => {
    serveMember(() => ({
      ...member,
      tokens: { ...member.tokens, forClaiming: '200000000000000000000', incoming: '0' },
    }));
    renderAt('/dashboard');
    const balance = within(await screen.findByRole('region', { name: 'Your REME' }));
    expect(balance.getByRole('button', { name: 'Claim 200.00 REME' })).toBeTruthy();
    expect(balance.queryByTestId('next-step')).toBeNull();
  });
});

describe('the activity list', () => {
  it('tells what happened, newest first, with its worth and day; held credits say until when', async () => {
    serveMember(undefined, {
      '/api/activity': () => ({
        items: [
          {
            ...memberActivity.items[0],
            id: 'ledger-9',
            kind: 'care',
            caps: 25,
            friend: null,
            level: null,
            description: 'Visited a neighbour',
            held: true,
            releaseAt: '2026-11-29T14:00:00.000Z',
          },
          {
            ...memberActivity.items[0],
            id: 'claim-1',
            kind: 'claimed',
            caps: null,
            reme: '300000000000000000000',
            level: null,
            friend: null,
          },
          {
            ...memberActivity.items[0],
            id: 'round-2',
            kind: 'payout',
            caps: null,
            reme: '1250500000000000000000',
            level: null,
            friend: null,
            round: 2,
          },
          {
            ...memberActivity.items[0],
            id: 'ledger-5',
            kind: 'conversion',
            caps: 60,
            reme: '9953550099535500995',
            level: null,
            friend: null,
          },
          { ...memberActivity.items[0], id: 'ledger-4', level: 2, friend: null, caps: 50 },
          ...memberActivity.items,
        ],
        unread: 0,
        seenAt: null,
      }),
    });
    renderAt('/dashboard');
    const list = await screen.findByTestId('activity');
    const lines = within(list)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(lines).toEqual([
      'Visited a neighbour · on hold until 29 Nov 2026+25 CAPs20 Nov 2026',
      'Claimed to your wallet (free)300.00 REME20 Nov 2026',
      'Payout (round 2): REME ready to claim+1,250.50 REME20 Nov 2026',
      'Converted care CAPs → 9.95 REME, paid in a payout−60 CAPs20 Nov 2026',
      'A friend of a friend joined+50 CAPs20 Nov 2026',
      'Bob joined through your link+100 CAPs20 Nov 2026',
      'You joined the community+200 CAPs19 Nov 2026',
    ]);
  });

  it('is read again when the server says something happened, though no figure changed', async () => {
    let activity: unknown = memberActivity;
    serveMember(undefined, { '/api/activity': () => activity });
    renderAt('/dashboard');
    const list = await screen.findByTestId('activity');
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    const meReads = meCalls();
    activity = {
      ...memberActivity,
      items: [
        {
          ...memberActivity.items[0]!,
          id: 'ledger-3',
          kind: 'referral',
          at: '2026-11-21T10:00:00.000Z',
          friend: 'Cleo',
        },
        ...memberActivity.items,
      ],
      unread: 1,
    };
    act(() => void eventSources.at(-1)!.dispatchEvent(new Event('changed')));
    await waitFor(() =>
      expect(within(screen.getByTestId('activity')).getAllByRole('listitem')).toHaveLength(3),
    );
    expect(screen.getByText('Cleo joined through your link')).toBeTruthy();
    expect(screen.getByTestId('bell-count').textContent).toBe('1');
    // The figures were read again too, and are what they were.
    await waitFor(() => expect(meCalls()).toBe(meReads + 1));
    expect(screen.getByTestId('caps-balance').textContent).toBe(String(member.caps.total));
  });

  it('a new member with nothing to claim or coming sees no rows of zeros', async () => {
    serveMember(() => ({
      ...member,
      tokens: { ...member.tokens, forClaiming: '0', incoming: '0' },
    }));
    renderAt('/dashboard');
    await screen.findByTestId('activity');
    expect(screen.queryByTestId('tokens-to-claim')).toBeNull();
  });
});

describe('the notification centre', () => {
  it('the bell counts what came since it was last opened; opening it lists them as New and marks them seen', async () => {
    let seenAt = '2026-11-19T12:00:00.000Z';
    serveMember(undefined, {
      '/api/activity': () => ({
        ...memberActivity,
        unread: seenAt < '2026-11-20T10:00:00.000Z' ? 1 : 0,
        seenAt,
      }),
      '/api/activity/seen': () => {
        seenAt = '2026-11-20T10:00:00.000Z';
        return { ok: true };
      },
    });
    renderAt('/dashboard');
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 new' });
    expect(within(bell).getByTestId('bell-count').textContent).toBe('1');
    fireEvent.click(bell);
    const centre = within(await screen.findByRole('dialog', { name: 'Notifications' }));
    expect(centre.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'NewBob joined through your link+100 CAPs20 Nov 2026',
      'You joined the community+200 CAPs19 Nov 2026',
    ]);
    await waitFor(() => expect(requests).toContain('POST /api/activity/seen'));
    // Still marked New while open; the bell no longer counts it.
    expect(centre.getByText('New')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('bell-count')).toBeNull());
  });

  it('with nothing new the bell shows no count and opening it marks nothing', async () => {
    serveMember();
    renderAt('/dashboard');
    const bell = await screen.findByRole('button', { name: 'Notifications' });
    expect(within(bell).queryByTestId('bell-count')).toBeNull();
    fireEvent.click(bell);
    await screen.findByRole('dialog', { name: 'Notifications' });
    expect(requests).not.toContain('POST /api/activity/seen');
  });

  it('a long history: Show older reads the next page after the last line shown, until there is no more', async () => {
    const line = (n: number) => ({
      ...memberActivity.items[1]!,
      id: `ledger-${n}`,
      at: new Date(Date.UTC(2026, 10, 20, 0, 0, 0) - n * 60_000).toISOString(),
    });
    const firstPage = Array.from({ length: 30 }, (_, i) => line(i + 1));
    const olderPage = [line(31), line(32)];
    const last = firstPage.at(-1)!;
    serveMember(undefined, {
      '/api/activity': () => ({ items: firstPage, unread: 0, seenAt: '2026-11-21T00:00:00.000Z' }),
      [`/api/activity/older?${new URLSearchParams({ beforeAt: last.at, beforeId: last.id })}`]:
        () => ({ items: olderPage, more: false }),
    });
    renderAt('/dashboard');
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications' }));
    const centre = within(await screen.findByRole('dialog', { name: 'Notifications' }));
    expect(centre.getAllByRole('listitem')).toHaveLength(30);
    fireEvent.click(centre.getByRole('button', { name: 'Show older' }));
    await waitFor(() => expect(centre.getAllByRole('listitem')).toHaveLength(32));
    expect(centre.queryByRole('button', { name: 'Show older' })).toBeNull();
  });

  it('a short history offers no older page', async () => {
    serveMember();
    renderAt('/dashboard');
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications' }));
    const centre = within(await screen.findByRole('dialog', { name: 'Notifications' }));
    expect(centre.queryByRole('button', { name: 'Show older' })).toBeNull();
  });
});
