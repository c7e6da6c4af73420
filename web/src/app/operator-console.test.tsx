// The operator console in the browser: the gate's answers to a member and to an
// operator without two-factor, and for an operator the members list, a member's page with a care
// action that keeps its idempotency key across a retry, and the audit log.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { appTestHooks, renderAt, serveMember } from '../test-fixtures';

appTestHooks();

const refusal = (code: string, message: string) => () =>
  new Response(JSON.stringify({ code, message }), { status: 403 });
const operator = { userId: 'op1', email: 'op@example.test', name: 'Olive Operator' };
const row = {
  id: 'm1',
  name: 'Ada Lovelace',
  username: 'ada',
  email: 'ada@example.test',
  referralCode: 'ABCD2345',
  wallet: '0x' + '1'.repeat(40),
  joinedAt: '2026-11-01T10:00:00.000Z',
  confirmed: true,
  caps: 200,
};
const detail = {
  member: { ...row, operator: false, twoFactorEnabled: false, referredBy: null },
  caps: { registration: 200, referrals: 0, careActions: 0, total: 200 },
  ledger: [
    {
      kind: 'signup',
      caps: 200,
      reme: '200000000000000000000',
      level: null,
      description: 'Registration bonus',
      createdAt: '2026-11-01T10:00:00.000Z',
    },
    {
      kind: 'conversion',
      caps: 60,
      reme: '9953550099535500995',
      level: null,
      description: 'Converted 60 care CAPs',
      createdAt: '2026-11-02T10:00:00.000Z',
    },
  ],
  network: { level1: 0, level2: 0, level3: 0, members: [] },
  chain: { remeBalance: null, claimed: null },
  rounds: [],
  claims: [],
  sponsoredClaims: [],
  mails: [
    {
      id: 1,
      subject: 'Confirm your e-mail address',
      status: 'sent',
      attempts: 1,
      lastError: null,
      createdAt: '2026-11-01T10:00:00.000Z',
      sentAt: '2026-11-01T10:00:01.000Z',
    },
  ],
};

describe('the operator console', () => {
  it('tells a member it is not for them', async () => {
    serveMember(undefined, {
      '/api/console/me': refusal('not_operator', 'This page is for the community’s operators.'),
    });
    renderAt('/operator');
    expect((await screen.findByRole('alert')).textContent).toMatch(/for the community’s operators/);
    expect(screen.getByRole('link', { name: 'Back to your wallet' })).toBeTruthy();
  });

  it('sends an operator without two-factor sign-in to the account page', async () => {
    serveMember(undefined, {
      '/api/console/me': refusal('two_factor_required', 'Turn on two-factor sign-in first.'),
    });
    renderAt('/operator');
    const link = await screen.findByRole('link', {
      name: 'Set up two-factor sign-in on your account page',
    });
    expect(link.getAttribute('href')).toBe('/account');
  });

  it('lists members, opens one, and credits a care action once, with one key across a retry', async () => {
    let attempts = 0;
    serveMember(undefined, {
      '/api/console/me': () => operator,
      '/api/console/members?sort=joined': () => ({ members: [row], nextCursor: null }),
      '/api/console/members/m1': () => detail,
      '/api/console/members/m1/care-actions': () =>
        ++attempts === 1
          ? new Response(
              JSON.stringify({
                code: 'internal_error',
                message: 'Something went wrong on our side. Please try again.',
              }),
              { status: 500 },
            )
          : new Response(JSON.stringify({ credited: true, userId: 'm1', caps: 25 }), {
              status: 201,
            }),
    });
    const served = globalThis.fetch;
    const keys: Array<string | null> = [];
    vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
      if (String(url).endsWith('/care-actions'))
        keys.push(new Headers(init?.headers).get('idempotency-key'));
      return served(url, init);
    });
    const router = renderAt('/operator/members');
    fireEvent.click(await screen.findByRole('link', { name: 'Ada Lovelace' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/operator/members/m1'));
    expect(await screen.findByRole('heading', { name: 'Ada Lovelace' })).toBeTruthy();
    const ledger = screen.getByRole('table', { name: 'CAPs ledger' }).textContent;
    expect(ledger).toMatch(/Registration bonus.*\+200/);
    // A conversion spends care CAPs: shown as taken away, not credited.
    expect(ledger).toMatch(/Converted 60 care CAPs.*−60/);

    fireEvent.change(screen.getByLabelText('CAPs', { selector: 'input' }), {
      target: { value: '0' },
    });
    fireEvent.change(screen.getByLabelText('What they did'), {
      target: { value: 'Visited Mrs Jones' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Credit care action' }));
    expect(await screen.findByText(/whole number from 1 to 100,000/)).toBeTruthy();
    expect(keys).toEqual([]);

    fireEvent.change(screen.getByLabelText('CAPs', { selector: 'input' }), {
      target: { value: '25' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Credit care action' }));
    expect(await screen.findByText(/Something went wrong on our side/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Credit care action' }));
    expect(await screen.findByText('Credited 25 CAPs to Ada Lovelace.')).toBeTruthy();
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  it("shows an unconfirmed member's network, rounds, claims and failing mail, and resends the link", async () => {
    serveMember(undefined, {
      '/api/console/me': () => operator,
      '/api/console/members/m1': () => ({
        ...detail,
        member: { ...detail.member, confirmed: false, referredBy: { id: 'm0', name: 'Grace' } },
        network: {
          level1: 1,
          level2: 1,
          level3: 0,
          members: [
            {
              id: 'm2',
              name: 'Bea',
              level: 1,
              parentId: 'm1',
              joinedAt: '2026-11-03T10:00:00.000Z',
            },
            {
              id: 'm3',
              name: 'Cy',
              level: 2,
              parentId: 'm2',
              joinedAt: '2026-11-04T10:00:00.000Z',
            },
          ],
        },
        chain: { remeBalance: '200000000000000000000', claimed: '200000000000000000000' },
        rounds: [
          {
            round: 1,
            status: 'published',
            cumulativeAmount: '200000000000000000000',
            publishedAt: null,
          },
        ],
        claims: [
          { blockNumber: 7, txHash: '0x' + 'e'.repeat(64), amount: '200000000000000000000' },
        ],
        sponsoredClaims: [
          {
            round: 1,
            amount: '200000000000000000000',
            status: 'confirmed',
            reason: null,
            requestedAt: '2026-11-05T10:00:00.000Z',
          },
        ],
        mails: [
          {
            id: 2,
            subject: 'Confirm your e-mail address',
            status: 'pending',
            attempts: 3,
            lastError: '421 try later',
            createdAt: '2026-11-01T10:00:00.000Z',
            sentAt: null,
          },
        ],
      }),
      '/api/console/members/m1/resend-confirmation': () => ({ ok: true }),
    });
    renderAt('/operator/members/m1');
    expect(await screen.findByText('Not confirmed')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Grace' })).toBeTruthy();
    const network = screen.getByRole('table', { name: 'Members of the network' });
    expect(network.textContent).toMatch(/Bea.*this member/);
    expect(network.textContent).toMatch(/Cy.*Bea/);
    expect(
      within(screen.getByRole('table', { name: 'Claims on the chain' })).getByRole('cell', {
        name: '200.00',
      }),
    ).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Claims the community paid for' })).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Mails sent' }).textContent).toMatch(
      /Failing \(3 tries\): 421 try later/,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Resend confirmation' }));
    expect(
      await screen.findByText('A new confirmation link is on its way to ada@example.test.'),
    ).toBeTruthy();
  });

  it('shows the audit log with a CSV download', async () => {
    serveMember(undefined, {
      '/api/console/me': () => operator,
      '/api/console/audit': () => ({
        entries: [
          {
            id: 2,
            at: '2026-11-02T10:00:00.000Z',
            actor: 'console',
            operatorEmail: 'op@example.test',
            action: 'care-action.credit',
            target: 'm1',
            detail: { caps: 25, description: 'Visited Mrs Jones', outcome: 'credited' },
            ip: '127.0.0.1',
            idempotencyKey: 'k-123456789',
          },
        ],
        nextBefore: null,
      }),
    });
    renderAt('/operator/audit');
    expect(await screen.findByText('care-action.credit')).toBeTruthy();
    expect(screen.getByText(/Visited Mrs Jones/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe(
      '/api/console/audit.csv',
    );
  });
});
