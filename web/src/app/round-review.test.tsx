// A round in review on the dashboard (issue 28): the member's line and when it pays, how it was
// worked out, and "Something wrong? Tell the community", sent once.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  appTestHooks,
  links,
  member,
  memberActivity,
  renderAt,
  requests,
  serveMember,
} from '../test-fixtures';

appTestHooks();

const E18 = '000000000000000000';
const inReview = (reported: boolean) => ({
  ...member,
  tokens: {
    ...member.tokens,
    entitled: `300${E18}`,
    incoming: `300${E18}`,
    signupTokens: `200${E18}`,
    inReview: {
      round: 4,
      total: `300${E18}`,
      adds: `300${E18}`,
      claimableFrom: '2026-11-29T14:00:00.000Z',
      reported,
    },
  },
});

describe('a round in review on the dashboard', () => {
  it('says when it pays and how it was worked out, and sends what looks wrong', async () => {
    let reported = false;
    const bodies: unknown[] = [];
    serveMember(() => inReview(reported));
    const { stubFetch } = await import('../test-network');
    stubFetch((path, init) => {
      requests.push(`${init?.method ?? 'GET'} ${path}`);
      if (path === '/api/rounds/4/report' && init?.method === 'POST') {
        bodies.push(JSON.parse(String(init.body)));
        reported = true;
        return new Response(JSON.stringify({ ok: true }), { status: 201 });
      }
      if (path.startsWith('/api/me')) return inReview(reported);
      if (path === '/api/config') return links;
      if (path === '/api/conversions' || path === '/api/rewards/held') return { items: [] };
      if (path === '/api/claim/sponsored') return { available: false, reason: null, latest: null };
      if (path === '/api/activity') return memberActivity;
      return undefined;
    });
    renderAt('/dashboard');
    const line = await screen.findByTestId('next-step');
    expect(line.textContent).toMatch(/^Round 4: 300\.00 REME for you, claimable from 29 Nov 2026/);
    expect(within(line).getByRole('link', { name: 'See the round' }).getAttribute('href')).toBe(
      '/rounds',
    );
    const review = screen.getByTestId('round-review');
    expect(review.textContent).toContain(
      'Round 4 gives you 300.00 REME in all: everything you had earned as REME when it was made — 200.00 for joining, and 100.00 from friends who joined through you and from care CAPs you converted',
    );

    fireEvent.click(
      within(review).getByRole('button', { name: 'Something wrong? Tell the community' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Something wrong in round 4?' });
    // Nothing typed: said, nothing sent.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('Say in a few words what looks wrong.')).toBeTruthy();
    expect(bodies).toEqual([]);
    fireEvent.change(within(dialog).getByLabelText('What looks wrong?'), {
      target: { value: '  My friend Bob is missing.  ' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodies).toEqual([{ message: 'My friend Bob is missing.' }]);
    expect(
      await screen.findByText('Thank you: the community’s operators and guardians were told.'),
    ).toBeTruthy();
    expect(
      await screen.findByText('You told the community about this round. Thank you.'),
    ).toBeTruthy();
    expect(
      screen.queryByRole('button', { name: 'Something wrong? Tell the community' }),
    ).toBeNull();
  });

  it('says why a report was refused and keeps what was typed', async () => {
    serveMember(() => inReview(false), {
      '/api/rounds/4/report': () =>
        new Response(
          JSON.stringify({
            code: 'round_not_in_review',
            message:
              'This round is not in review any more: it pays now, or it was cancelled. Reload the page.',
          }),
          { status: 409 },
        ),
    });
    renderAt('/dashboard');
    fireEvent.click(
      await screen.findByRole('button', { name: 'Something wrong? Tell the community' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Something wrong in round 4?' });
    const field = within(dialog).getByLabelText('What looks wrong?') as HTMLTextAreaElement;
    fireEvent.change(field, { target: { value: 'Too little.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText(/This round is not in review any more/)).toBeTruthy();
    expect(field.value).toBe('Too little.');
  });
});
