// The console's overview in the browser: the figures from GET /api/console/overview at
// once, and the charts from their own lazily loaded chunk, each named for what it shows with its
// numbers beside it. happy-dom draws no canvas: the tests read the names and the numbers.
import type { ConsoleOverview } from '@crw/core/console';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { appTestHooks, renderAt, requests, serveMember } from '../test-fixtures';

appTestHooks();

const operator = { userId: 'op1', email: 'op@example.test', name: 'Olive Operator' };
const reme = (n: number) => `${n}${'0'.repeat(18)}`;

function overview(overrides: Partial<ConsoleOverview> = {}): ConsoleOverview {
  const days = Array.from({ length: 30 }, (_, i) => ({
    date: new Date(Date.UTC(2026, 9, 27 + i)).toISOString().slice(0, 10),
    joined: i === 29 ? 4 : i === 20 ? 7 : 1,
    confirmed: i === 29 ? 3 : 1,
    caps: {
      signup: i === 29 ? 600 : 200,
      referralLevel1: i === 29 ? 100 : 0,
      referralLevel2: 0,
      referralLevel3: 0,
      careAction: i === 10 ? 25 : 0,
    },
    claims: i === 29 ? 2 : i === 5 ? 1 : 0,
  }));
  return {
    asOf: '2026-11-25T09:30:00.000Z',
    totals: {
      members: 1234,
      confirmed: 1100,
      capsIssued: { signup: 220_000, referral: 61_000, careAction: 425, total: 281_425 },
      remeDistributed: reme(500),
      latestRound: 3,
      remeClaimed: reme(300),
    },
    days,
    balances: {
      treasuryAddress: '0x' + '4'.repeat(40),
      treasuryReme: reme(999_999_500),
      treasuryEth: '1500000000000000000',
      distributorAddress: '0x' + '3'.repeat(40),
      distributorReme: reme(200),
      relayerAddress: '0x' + '5'.repeat(40),
      relayerEth: reme(9),
    },
    ...overrides,
  };
}

const figure = (label: string) =>
  within(screen.getByRole('list', { name: 'Figures' }))
    .getByText(label, { selector: 'span' })
    .closest('li')!.textContent;

describe('the console overview', () => {
  it('shows the figures at once and the charts from their own chunk, each with its numbers', async () => {
    serveMember(undefined, {
      '/api/console/me': () => operator,
      '/api/console/overview': () => overview(),
    });
    renderAt('/operator/overview');
    expect(await screen.findByRole('heading', { name: 'Overview' })).toBeTruthy();
    await screen.findByRole('list', { name: 'Figures' });
    // The figures are on screen while the charts' chunk is still on its way.
    expect(screen.getByRole('status').textContent).toMatch(/Loading the charts/);
    expect(figure('Members')).toMatch(/1,234/);
    expect(figure('Members')).toMatch(/39 joined in 30 days/);
    expect(figure('Confirmed')).toMatch(/1,100.*89\.14% of members/);
    expect(figure('CAPs issued')).toMatch(
      /281,425.*Registration 220,000 · Referrals 61,000 · Care 425/,
    );
    expect(figure('REME distributed')).toMatch(/500 REME.*Round 3/);
    expect(figure('REME claimed')).toMatch(/300 REME.*60% of what was distributed/);
    expect(figure('Treasury')).toMatch(/1bn REME.*1\.5 ETH/);
    expect(figure('Distributor')).toMatch(/200 REME/);
    expect(figure('Relayer')).toMatch(/9 ETH/);
    expect(requests.filter((r) => r === 'GET /api/console/overview')).toHaveLength(1);

    const members = await screen.findByRole('img', {
      name: 'Members joined per day over the last 30 days: 39 joined and 32 confirmed; the busiest day was 16 Nov (7).',
    });
    expect(members).toBeTruthy();
    expect(screen.queryByText(/Loading the charts/)).toBeNull();
    const numbers = (name: string) => screen.getByLabelText(name).textContent;
    expect(numbers('Members joined, last days')).toMatch(/Joined in 30 days39/);
    expect(numbers('Members joined, last days')).toMatch(/Joined today4/);

    expect(
      screen.getByRole('img', {
        name: 'CAPs credited per day over the last 30 days, stacked by kind: registration 6,400, referral level 1 100, referral level 2 0, referral level 3 0, care actions 25; 6,525 in all.',
      }),
    ).toBeTruthy();
    expect(numbers('CAPs credited, last days')).toMatch(/Ever281,425/);

    expect(
      screen.getByRole('img', {
        name: 'Claims per day over the last 30 days: 3 in all; the busiest day was 25 Nov (2).',
      }),
    ).toBeTruthy();
    expect(numbers('Claims, last days')).toMatch(/Claims in 30 days3.*Claims today2/);

    expect(
      screen.getByRole('img', {
        name: 'REME claimed: 300 REME of 500 REME distributed (60%).',
      }),
    ).toBeTruthy();
    expect(numbers('REME')).toMatch(/Not yet claimed200 REME/);

    // Day by day, newest first.
    const tables = screen.getAllByRole('table');
    expect(tables).toHaveLength(3);
    const firstRow = within(tables[0]!).getAllByRole('row')[1]!;
    expect(firstRow.textContent).toBe('25 Nov43');
  });

  it('says when the chain did not answer: no balances, no claims per day, no relayer', async () => {
    const base = overview();
    serveMember(undefined, {
      '/api/console/me': () => operator,
      '/api/console/overview': () =>
        overview({
          days: base.days.map((d) => ({ ...d, claims: null })),
          balances: {
            ...base.balances,
            treasuryReme: null,
            treasuryEth: null,
            distributorReme: null,
            relayerAddress: null,
            relayerEth: null,
          },
        }),
    });
    renderAt('/operator/overview');
    await screen.findByRole('list', { name: 'Figures' });
    expect(figure('Treasury')).toMatch(/—.*The chain did not answer/);
    expect(figure('Distributor')).toMatch(/—.*The chain did not answer/);
    expect(figure('Relayer')).toMatch(/Off.*Sponsored claims are off/);
    expect(
      await screen.findByRole('img', {
        name: 'Claims per day: not available, the chain could not say which blocks each day holds.',
      }),
    ).toBeTruthy();
    expect(screen.getByText(/claims cannot be placed in days right now/)).toBeTruthy();
  });

  it('shows the error when the overview cannot be read', async () => {
    serveMember(undefined, {
      '/api/console/me': () => operator,
      '/api/console/overview': () =>
        new Response(JSON.stringify({ code: 'internal_error', message: 'Something went wrong.' }), {
          status: 500,
        }),
    });
    renderAt('/operator/overview');
    expect(await screen.findByText('Something went wrong.')).toBeTruthy();
  });
});
