// The network page (/rcb) as new members on a phone asked for it: friends by the names they chose
// to share, one Share button, the wallet shortened in the middle, no appearance or density toggles
// (they are on the account page), and "You" not counted as a level.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { appTestHooks, renderAt, serveMember } from '../test-fixtures';

appTestHooks();

const network = {
  success: true,
  data: {
    hierarchy: [
      {
        referred_id: 'b',
        parent_id: 'u1',
        level: 1,
        created_at: '2026-03-01T10:00:00.000Z',
        name: 'Bob',
        short_address: null,
      },
      {
        referred_id: 'q',
        parent_id: 'u1',
        level: 1,
        created_at: '2026-03-02T10:00:00.000Z',
        name: null,
        short_address: '0x2222…2222',
      },
      {
        referred_id: 'c',
        parent_id: 'b',
        level: 2,
        created_at: '2026-03-03T10:00:00.000Z',
        name: null,
        short_address: null,
      },
    ],
    level_counts: { level1: 2, level2: 1, level3: 0 },
    total_network_size: 3,
  },
};

async function openNetwork() {
  serveMember(undefined, { '/api/referrals/network': () => network });
  renderAt('/rcb');
  await screen.findByRole('heading', { name: 'Hi Ada Lovelace, grow your community' });
}

describe('the network page', () => {
  it('shows friends by the names they chose to share, and the rest by their shortened wallet', async () => {
    await openNetwork();
    const friends = within(screen.getByRole('list', { name: 'Friends who joined with your link' }));
    expect(friends.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      '0x2222…2222Joined 2 Mar 2026',
      'BBobJoined 1 Mar 2026 · 1 friend joined through them',
    ]);
  });

  it('has one Share button for the referral link, the link in sight as text', async () => {
    await openNetwork();
    const invite = within(screen.getByRole('region', { name: 'Your referral link' }));
    expect(invite.getAllByRole('button').map((b) => b.textContent)).toEqual(['Share']);
    expect(invite.getByLabelText('Your referral link').textContent).toBe(
      'http://localhost/r/ABCD2345',
    );
    expect(screen.queryByRole('button', { name: /Start Inviting|Copy link/i })).toBeNull();
  });

  it('shortens the wallet in the middle, as every screen does', async () => {
    await openNetwork();
    expect(screen.getByText('0x1111…1111')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy wallet address' })).toBeTruthy();
    expect(screen.queryByText('0x1111111111111111111')).toBeNull();
  });

  it('has no appearance or density toggles: they are on the account page', async () => {
    await openNetwork();
    for (const name of ['Aurora', 'Crimson', 'Light', 'Compact', 'Modern', 'Comfortable'])
      expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.queryByRole('group', { name: /Theme|Layout|Appearance|Density/ })).toBeNull();
  });

  it('lists levels 1, 2 and 3 and never counts "You" as one', async () => {
    await openNetwork();
    const levels = within(screen.getByRole('list', { name: 'Network by level' }));
    expect(levels.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'FriendsLevel 1 · 100 CAPs each2',
      'Friends of friendsLevel 2 · 50 CAPs each1',
      'Their friendsLevel 3 · 25 CAPs each0',
    ]);
    expect(screen.getByTestId('network-size').textContent).toBe('3');
    expect(
      screen.getByRole('img', { name: 'Your network: 2 at level 1, 1 at level 2, 0 at level 3.' }),
    ).toBeTruthy();
  });
});
