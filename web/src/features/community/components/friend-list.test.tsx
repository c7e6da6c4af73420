// The friends who joined with the member's link, by the names they chose to share: the first word
// of their name, or their wallet shortened when they gave none; nobody deeper is named.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FriendList } from './friend-list';
import { networkMember, networkOf } from './network-fixtures';

afterEach(cleanup);

const member = networkMember;

describe('FriendList', () => {
  it('names each friend, newest first, with the day they joined and how many joined through them', () => {
    render(
      <FriendList
        network={networkOf([
          member({ referred_id: 'b', name: 'Bob', created_at: '2026-03-01T10:00:00.000Z' }),
          member({
            referred_id: 'q',
            short_address: '0x1234…abcd',
            created_at: '2026-03-05T10:00:00.000Z',
          }),
          member({ referred_id: 'c', parent_id: 'b', level: 2 }),
          member({ referred_id: 'e', parent_id: 'b', level: 2 }),
          member({ referred_id: 'd', parent_id: 'c', level: 3 }),
        ])}
      />,
    );
    const rows = within(
      screen.getByRole('list', { name: 'Friends who joined with your link' }),
    ).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      '0x1234…abcdJoined 5 Mar 2026',
      'BBobJoined 1 Mar 2026 · 2 friends joined through them',
    ]);
  });

  it('shows the first eight, the rest on asking', () => {
    const many = Array.from({ length: 10 }, (_, i) =>
      member({ referred_id: `f${i}`, name: `Friend${i}` }),
    );
    render(<FriendList network={networkOf(many)} />);
    expect(screen.getAllByRole('listitem')).toHaveLength(8);
    fireEvent.click(screen.getByRole('button', { name: 'Show all 10 friends' }));
    expect(screen.getAllByRole('listitem')).toHaveLength(10);
  });

  it('says how to get friends when there are none', () => {
    render(<FriendList network={networkOf([])} />);
    expect(screen.getByText(/No friends yet\. Share your link/)).toBeTruthy();
  });
});
