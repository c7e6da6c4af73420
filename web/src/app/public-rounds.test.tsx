// /rounds, for anyone (issue 28): every round on chain with what became of it, a round this service
// did not build named as such, and the command that checks a round.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { appTestHooks, renderAt, serveVisitor } from '../test-fixtures';

appTestHooks();

const E18 = '000000000000000000';
const round = (index: number, status: string, extra: object = {}) => ({
  index,
  root: `0x${String(index).repeat(64)}`,
  total: `${index * 100}${E18}`,
  members: 12,
  status,
  proposedAt: '2026-11-27T10:00:00.000Z',
  activeAt: '2026-11-28T10:00:00.000Z',
  proposedTx: `0x${'a'.repeat(63)}${index}`,
  cancelledTx: null,
  builtHere: true,
  tree: `/api/distributions/${index}/tree.json`,
  ...extra,
});

describe('every distribution round (/rounds)', () => {
  it('lists each round with its status, figures, transactions and tree, without an account', async () => {
    serveVisitor({
      '/api/rounds': () => ({
        chain: {
          chainId: 11155111,
          distributorAddress: `0x${'d'.repeat(40)}`,
          explorerUrl: 'https://sepolia.etherscan.io',
        },
        reviewHours: 24,
        rounds: [
          round(3, 'in_review'),
          round(2, 'cancelled', {
            builtHere: false,
            members: null,
            tree: null,
            cancelledTx: `0x${'c'.repeat(64)}`,
          }),
          round(1, 'active'),
        ],
      }),
    });
    renderAt('/rounds');
    expect(await screen.findByRole('heading', { name: 'Every distribution round' })).toBeTruthy();
    expect(screen.getByText(/waits 24 hours before anyone can claim from it/)).toBeTruthy();
    const list = screen.getByRole('list', { name: 'Rounds' });
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(3);
    expect(cards[0]!.textContent).toMatch(/In review · claimable from 28 Nov 2026/);
    expect(within(cards[0]!).getByRole('link', { name: 'tree.json' }).getAttribute('href')).toBe(
      '/api/distributions/3/tree.json',
    );
    expect(cards[1]!.textContent).toContain('Cancelled by a guardian · it never paid');
    expect(cards[1]!.textContent).toContain('This service did not build this round');
    expect(within(cards[1]!).queryByRole('link', { name: 'tree.json' })).toBeNull();
    expect(
      within(cards[1]!)
        .getByRole('link', { name: /Cancel transaction/ })
        .getAttribute('href'),
    ).toBe(`https://sepolia.etherscan.io/tx/0x${'c'.repeat(64)}`);
    expect(cards[2]!.textContent).toContain('Paying now');
    expect(screen.getByText(/npm run ops -- verify-round 3 --url/)).toBeTruthy();
  });

  it('says plainly when the rounds cannot be loaded', async () => {
    serveVisitor({
      '/api/rounds': () =>
        new Response(JSON.stringify({ code: 'chain_unavailable', message: 'down' }), {
          status: 503,
        }),
    });
    renderAt('/rounds');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The rounds could not be loaded',
    );
  });
});
