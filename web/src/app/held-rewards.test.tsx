import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { appTestHooks, member, renderAt, serveMember } from '../test-fixtures';

appTestHooks();

const held = (items: unknown[]) => ({ '/api/rewards/held': () => ({ items }) });

describe('held rewards on the dashboard', () => {
  it('says what is on hold, until when or that an organiser checks it, and what was not credited', async () => {
    serveMember(undefined, {
      ...held([
        {
          caps: 100,
          kind: 'referral',
          level: 1,
          state: 'held',
          releaseAt: '2026-11-28T09:00:00.000Z',
          at: '2026-11-25T09:00:00.000Z',
        },
        {
          caps: 50,
          kind: 'referral',
          level: 2,
          state: 'review',
          releaseAt: '2026-11-28T09:00:00.000Z',
          at: '2026-11-25T09:00:00.000Z',
        },
        {
          caps: 200,
          kind: 'signup',
          level: null,
          state: 'void',
          releaseAt: null,
          at: '2026-11-25T09:00:00.000Z',
        },
      ]),
    });
    renderAt('/dashboard');
    const card = await screen.findByRole('region', { name: '150 CAPs on hold' });
    const lines = within(card)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(lines).toEqual([
      '+100 CAPs for a friend who joined — on hold until 28 Nov 2026',
      '+50 CAPs from your network (level 2) — on hold while a community organiser checks it.',
      '200 CAPs for joining — not credited: the referral did not meet the community’s rules.',
    ]);
  });

  it('shows nothing when every credit counts', async () => {
    serveMember();
    renderAt('/dashboard');
    await screen.findByRole('heading', { name: /Hello/ });
    expect(screen.queryByRole('region', { name: /on hold|Not credited/ })).toBeNull();
  });

  it.each([
    ['held', 'They count towards your REME from 28 Nov 2026.'],
    ['review', 'They count towards your REME once a community organiser has checked them.'],
  ])('the welcome notice says when a joining bonus that is %s will count', async (state, then) => {
    localStorage.setItem('refferal', 'true');
    serveMember(
      () => ({ ...member, firstTimeReferral: true }),
      held([
        {
          caps: 200,
          kind: 'signup',
          level: null,
          state,
          releaseAt: '2026-11-28T09:00:00.000Z',
          at: '2026-11-25T09:00:00.000Z',
        },
      ]),
    );
    renderAt('/dashboard');
    const notice = await screen.findByText(/Congratulations you've earned 200 CAPs\./);
    await waitFor(() =>
      expect(notice.textContent).toBe(`Congratulations you've earned 200 CAPs. ${then}`),
    );
  });
});
