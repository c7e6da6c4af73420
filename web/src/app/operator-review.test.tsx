// The console's review queue in the browser: joinings grouped by network with their signals, a
// decision refused without a note, and a network's release posted with the note.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { appTestHooks, renderAt, serveMember } from '../test-fixtures';

appTestHooks();

const operator = { userId: 'op1', email: 'op@example.test', name: 'Olive Operator' };
const subject = (id: string, network: string, flagged: boolean) => ({
  id,
  name: `Member ${id}`,
  email: `${id}@example.test`,
  joinedAt: '2026-11-25T10:00:00.000Z',
  network,
  referrer: { id: 'r1', name: 'Rita Referrer' },
  flags: flagged
    ? [
        {
          signal: 'same_network_as_referrer',
          weight: 2,
          reason: 'Signed up from the same network as the member who referred them',
          detail: 'signed up from the network their referrer signed up from',
        },
      ]
    : [],
  flagged,
  releaseAt: '2026-11-28T10:00:00.000Z',
  credits: [
    { recipientId: id, recipientName: `Member ${id}`, kind: 'signup', level: null, caps: 200 },
    { recipientId: 'r1', recipientName: 'Rita Referrer', kind: 'referral', level: 1, caps: 100 },
  ],
});

describe('the review queue', () => {
  it('groups joinings by network, flagged first, and asks for a note before a decision', async () => {
    const bodies: unknown[] = [];
    serveMember(undefined, {
      '/api/console/me': () => operator,
      '/api/console/review': () => ({
        holdHours: 72,
        subjects: [
          subject('a', '192.0.2.0/24', false),
          subject('b', '10.9.8.0/24', true),
          subject('c', '10.9.8.0/24', true),
        ],
      }),
      '/api/console/review/decide': () => ({ subjects: 2, credits: 4 }),
    });
    const served = globalThis.fetch;
    vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
      if (init?.method === 'POST') bodies.push(JSON.parse(String(init.body)));
      return served(url, init);
    });
    renderAt('/operator/review');
    const clusters = await screen.findAllByRole('heading', { level: 2 });
    expect(clusters.map((h) => h.textContent)).toEqual(['10.9.8.0/24', '192.0.2.0/24']);
    const farm = screen.getByRole('table', { name: 'Joinings: 10.9.8.0/24' });
    // Each member's name leads to their whole history.
    expect(within(farm).getByRole('link', { name: 'Member b' }).getAttribute('href')).toBe(
      '/operator/members/b',
    );
    expect(within(farm).getAllByText('Waits for you')).toHaveLength(2);
    expect(within(farm).getAllByText(/same network as the member who referred them/)).toHaveLength(
      2,
    );
    expect(
      within(farm).getAllByText('200 to themselves, 100 to Rita Referrer (level 1)'),
    ).toHaveLength(2);

    const release = screen.getAllByRole('button', { name: 'Release all from this network' })[0]!;
    fireEvent.click(release);
    expect((await screen.findByRole('alert')).textContent).toMatch(/Write why first/);
    expect(bodies).toEqual([]);

    fireEvent.change(screen.getByLabelText('Note for the audit log'), {
      target: { value: 'a care home' },
    });
    fireEvent.click(release);
    await waitFor(() =>
      expect(bodies).toEqual([{ outcome: 'release', network: '10.9.8.0/24', note: 'a care home' }]),
    );
    expect(
      await screen.findByText('Released 4 credits of every joining from 10.9.8.0/24.'),
    ).toBeTruthy();

    // Grouped by referrer, one decision names the referrer.
    fireEvent.click(screen.getByRole('button', { name: 'Referrer' }));
    expect(await screen.findByRole('heading', { name: 'Referred by Rita Referrer' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Note for the audit log'), {
      target: { value: 'one farm' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Void all from this referrer' }));
    await waitFor(() =>
      expect(bodies.at(-1)).toEqual({ outcome: 'void', referrer: 'r1', note: 'one farm' }),
    );
  });
});
