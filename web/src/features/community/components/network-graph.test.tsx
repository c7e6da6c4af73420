// On a phone the graph shrank to unlabelled 10 px dots. It is drawn at its own
// size now, so a wide network scrolls sideways instead of shrinking. The member is "You" at its
// head, never a level: levels are 1, 2 and 3.
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { NetworkGraph, NetworkLevels } from './network-graph';
import { networkMember, networkOf } from './network-fixtures';

afterEach(cleanup);

const member = networkMember;

const friends = (n: number) =>
  Array.from({ length: n }, (_, i) => member({ referred_id: `f${i}`, name: `Friend${i}` }));

describe('NetworkGraph', () => {
  it('is drawn at its own size, never squeezed into the screen: twenty friends are wider than a phone', () => {
    render(<NetworkGraph rootId="me" network={networkOf(friends(20))} />);
    const svg = screen.getByRole('img', {
      name: 'Your network: 20 at level 1, 0 at level 2, 0 at level 3.',
    });
    expect(Number(svg.getAttribute('width'))).toBeGreaterThanOrEqual(20 * 40);
    expect(svg.getAttribute('viewBox')).toBe(
      `0 0 ${svg.getAttribute('width')} ${svg.getAttribute('height')}`,
    );
    expect(svg.querySelectorAll('circle').length).toBe(21);
  });

  it('draws the member as "You" and a friend by the initial of their name; deeper levels and friends without a name unlabelled', () => {
    const network = networkOf([
      member({ referred_id: 'b', name: 'bob' }),
      member({ referred_id: 'q', short_address: '0x1234…abcd' }),
      member({ referred_id: 'c', parent_id: 'b', level: 2 }),
      member({ referred_id: 'd', parent_id: 'c', level: 3 }),
    ]);
    render(<NetworkGraph rootId="me" network={network} />);
    const svg = screen.getByRole('img', {
      name: 'Your network: 2 at level 1, 1 at level 2, 1 at level 3.',
    });
    expect(Array.from(svg.querySelectorAll('text')).map((t) => t.textContent)).toEqual([
      'You',
      'B',
    ]);
    // Hovering a node says who it is, as far as the member knows them.
    expect(Array.from(svg.querySelectorAll('title')).map((t) => t.textContent)).toEqual([
      'You',
      'bob',
      '0x1234…abcd',
      'Friend of a friend',
      'Further along your network',
    ]);
    expect(svg.textContent).not.toMatch(/L0|level 0/i);
  });

  it('says nothing about levels under an empty network but that friends appear as they join', () => {
    render(<NetworkGraph rootId="me" network={networkOf([])} />);
    expect(
      screen.getByText('Your network appears here as friends join with your link.'),
    ).toBeTruthy();
  });
});

describe('NetworkLevels', () => {
  it('lists levels 1, 2 and 3 with what each friend there earns; "You" is not counted as a level', () => {
    const network = networkOf([
      member({ referred_id: 'b', name: 'Bob' }),
      member({ referred_id: 'c', parent_id: 'b', level: 2 }),
    ]);
    render(<NetworkLevels network={network} />);
    const items = within(screen.getByRole('list', { name: 'Network by level' })).getAllByRole(
      'listitem',
    );
    expect(items.map((li) => li.textContent)).toEqual([
      'FriendsLevel 1 · 100 CAPs each1',
      'Friends of friendsLevel 2 · 50 CAPs each1',
      'Their friendsLevel 3 · 25 CAPs each0',
    ]);
    expect(screen.queryByText(/You|Level 0/)).toBeNull();
  });
});
