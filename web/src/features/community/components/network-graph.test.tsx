// On a phone the graph shrank to unlabelled 10 px dots. It is drawn at its own
// size now, so a wide network scrolls sideways instead of shrinking.
import type { NetworkStats } from '@crw/core';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { NetworkGraph } from './network-graph';

afterEach(cleanup);

function networkOf(friends: number): NetworkStats {
  const hierarchy = Array.from({ length: friends }, (_, i) => ({
    referred_id: `f${i}`,
    parent_id: null,
    level: 1,
  }));
  return {
    success: true,
    data: {
      hierarchy,
      level_counts: { level1: friends, level2: 0, level3: 0 },
      total_network_size: friends,
    },
  } as NetworkStats;
}

describe('NetworkGraph', () => {
  it('is drawn at its own size, never squeezed into the screen: twenty friends are wider than a phone', () => {
    render(<NetworkGraph rootId="me" network={networkOf(20)} />);
    const svg = screen.getByRole('img', {
      name: 'Your network: 20 at level 1, 0 at level 2, 0 at level 3.',
    });
    expect(Number(svg.getAttribute('width'))).toBeGreaterThanOrEqual(20 * 40);
    expect(svg.getAttribute('viewBox')).toBe(
      `0 0 ${svg.getAttribute('width')} ${svg.getAttribute('height')}`,
    );
    expect(svg.querySelectorAll('circle').length).toBe(21);
  });

  it('says what each level is beside the graph', () => {
    render(<NetworkGraph rootId="me" network={networkOf(2)} />);
    expect(screen.getByText('L1 Your friends')).toBeTruthy();
    expect(screen.queryByText(/L2/)).toBeNull();
  });
});
