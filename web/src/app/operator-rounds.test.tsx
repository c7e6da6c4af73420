// The console's rounds screen: the dry run's figures and rows (with when it was worked out and a
// Refresh), publishing after a second question that names the amount (one publish however often
// it is pressed), its steps from the server's event stream, and the rounds so far with what
// became of the latest rounds' REME.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { appTestHooks, eventSources, renderAt, requests, serveMember } from '../test-fixtures';

appTestHooks();

const operator = { userId: 'op1', email: 'op@example.test', name: 'Olive Operator' };
const E18 = '000000000000000000';
const dryRun = (published: boolean) => ({
  index: published ? 2 : 1,
  members: 2,
  total: `400${E18}`,
  changed: published ? 0 : 2,
  newMembers: published ? 0 : 2,
  openRound: null,
  computedAt: '2026-11-02T10:00:00.000Z',
  matching: published ? 0 : 2,
  offset: 0,
  rows: published
    ? []
    : [
        { userId: 'm1', address: '0x' + 'a'.repeat(40), previous: '0', next: `200${E18}` },
        { userId: 'm2', address: '0x' + 'b'.repeat(40), previous: '0', next: `200${E18}` },
      ],
});
const round = {
  index: 1,
  status: 'published',
  root: '0x' + 'c'.repeat(64),
  total: `400${E18}`,
  members: 2,
  txHash: '0x' + 'd'.repeat(64),
  createdAt: '2026-11-02T10:00:00.000Z',
  publishedAt: '2026-11-02T10:01:00.000Z',
  activeAt: '2026-11-02T10:01:00.000Z',
  claims: {
    claimedThemselves: 812,
    claimedForThem: 3140,
    reminded: 96,
    notClaimed: 48,
    countedAt: '2026-11-02T10:05:00.000Z',
  },
};

const DISTRIBUTOR = '0x' + 'e'.repeat(40);
const noAlerts = { distributor: DISTRIBUTOR, alerts: [], reports: [] };

describe('distribution rounds in the console', () => {
  it('asks before publishing, follows the steps, then shows the round', async () => {
    let published = false;
    serveMember(undefined, {
      '/api/console/me': () => operator,
      '/api/console/rounds/alerts': () => noAlerts,
      '/api/console/rounds/dry-run?filter=changed&offset=0': () => dryRun(published),
      '/api/console/rounds': () => ({ rounds: published ? [round] : [] }),
      '/api/console/rounds/publish': () =>
        new Response(JSON.stringify({ started: true }), { status: 202 }),
    });
    renderAt('/operator/rounds');
    expect(await screen.findByRole('heading', { name: 'Round 1: the dry run' })).toBeTruthy();
    expect(screen.getByText('400.00')).toBeTruthy();
    expect(await screen.findByText('No round published yet.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Publish round 1' }));
    // The question names the round, its total REME and how many members it pays.
    const ask = await screen.findByRole('alertdialog', {
      name: 'Publish round 1: 400.00 REME in total to 2 members?',
    });
    expect(ask.textContent).toMatch(
      /2 members gain REME they can claim, as worked out at [^.]+\. A published round cannot be taken back\./,
    );
    expect(requests.filter((r) => r.startsWith('POST'))).toEqual([]);
    // A double press sends one publish, and the button is busy at once.
    const now = screen.getByRole('button', { name: 'Publish now' });
    fireEvent.click(now);
    fireEvent.click(now);
    expect((now as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(requests).toContain('POST /api/console/rounds/publish'));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(requests.filter((r) => r === 'POST /api/console/rounds/publish')).toHaveLength(1);
    await waitFor(() => expect(eventSources.length).toBeGreaterThan(0));
    const stream = eventSources.at(-1)!;
    const send = (phase: string) =>
      stream.dispatchEvent(
        new MessageEvent('progress', {
          data: JSON.stringify({ phase, index: 1, txHash: null, error: null }),
        }),
      );
    send('prepared');
    const steps = await screen.findByRole('list', { name: 'Publishing progress' });
    expect(steps.textContent).toMatch(/store the tree\s*Done/);
    published = true;
    send('published');
    expect(await screen.findByText('Round 1 is published on the chain.')).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'tree.json' })).toBeTruthy();
    expect(await screen.findByText('Nobody gains anything in this round.')).toBeTruthy();
  });

  it('says when the dry run was worked out, and Refresh has it worked out again', async () => {
    // Today: the time alone ("14:02"); another day's dry run would show its date too.
    const at = (minute: number) => new Date(new Date().setHours(14, minute, 0, 0)).toISOString();
    const first = at(2);
    const second = at(7);
    let computedAt = first;
    serveMember(undefined, {
      '/api/console/me': () => operator,
      '/api/console/rounds/alerts': () => noAlerts,
      '/api/console/rounds/dry-run?filter=changed&offset=0': () => ({
        ...dryRun(false),
        computedAt,
      }),
      '/api/console/rounds': () => ({ rounds: [] }),
      '/api/console/rounds/dry-run/refresh': () => {
        computedAt = second;
        return { computedAt };
      },
    });
    renderAt('/operator/rounds');
    expect(
      await screen.findByText((_, el) => el?.textContent === 'Worked out at 14:02'),
    ).toBeTruthy();
    const dryRuns = () =>
      requests.filter((r) => r.startsWith('GET /api/console/rounds/dry-run')).length;
    const before = dryRuns();
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(requests).toContain('POST /api/console/rounds/dry-run/refresh'));
    await waitFor(() => expect(dryRuns()).toBeGreaterThan(before));
    expect(
      await screen.findByText((_, el) => el?.textContent === 'Worked out at 14:07'),
    ).toBeTruthy();
  });

  it('names the stored figures of a round started earlier before finishing it', async () => {
    serveMember(undefined, {
      '/api/console/me': () => operator,
      '/api/console/rounds/alerts': () => noAlerts,
      '/api/console/rounds/dry-run?filter=changed&offset=0': () => ({
        ...dryRun(false),
        openRound: 1,
      }),
      '/api/console/rounds': () => ({
        rounds: [
          {
            ...round,
            status: 'prepared',
            total: `1200${E18}`,
            members: 37,
            txHash: null,
            publishedAt: null,
            claims: null,
          },
        ],
      }),
    });
    renderAt('/operator/rounds');
    fireEvent.click(await screen.findByRole('button', { name: 'Finish round 1' }));
    expect(
      await screen.findByRole('alertdialog', {
        name: 'Finish round 1: 1,200.00 REME in total to 37 members?',
      }),
    ).toBeTruthy();
  });

  it('asks with the total exact to the last base unit, and shows the figures grouped in two decimals', async () => {
    const total = '1365892501658925016589';
    serveMember(undefined, {
      '/api/console/me': () => operator,
      '/api/console/rounds/alerts': () => noAlerts,
      '/api/console/rounds/dry-run?filter=changed&offset=0': () => ({ ...dryRun(false), total }),
      '/api/console/rounds': () => ({ rounds: [{ ...round, total: `1234567${E18}` }] }),
    });
    renderAt('/operator/rounds');
    expect(await screen.findByRole('heading', { name: 'Round 1: the dry run' })).toBeTruthy();
    expect(screen.getByText('1,365.89')).toBeTruthy();
    expect(await screen.findByText('1,234,567.00')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Publish round 1' }));
    expect(
      await screen.findByRole('alertdialog', {
        name: 'Publish round 1: 1,365.892501658925016589 REME in total to 2 members?',
      }),
    ).toBeTruthy();
  });

  it('shows a console publish in the audit log with its round, total REME and transaction', async () => {
    serveMember(undefined, {
      '/api/console/me': () => operator,
      '/api/console/rounds/alerts': () => noAlerts,
      '/api/console/audit': () => ({
        entries: [
          {
            id: 7,
            at: '2026-11-02T10:01:00.000Z',
            actor: 'console',
            operatorEmail: operator.email,
            action: 'round.publish',
            target: '1',
            detail: { index: 1, total: `1200${E18}`, txHash: round.txHash, outcome: 'published' },
            ip: '127.0.0.1',
            idempotencyKey: null,
          },
        ],
        nextBefore: null,
      }),
    });
    renderAt('/operator/audit');
    const row = (await screen.findByText('round.publish')).closest('tr')!;
    expect(row.textContent).toContain(operator.email);
    expect(row.textContent).toContain(`index: 1, total: 1,200.00 REME, txHash: ${round.txHash}`);
  });

  it('says why publishing stopped', async () => {
    serveMember(undefined, {
      '/api/console/me': () => operator,
      '/api/console/rounds/alerts': () => noAlerts,
      '/api/console/rounds/dry-run?filter=changed&offset=0': () => dryRun(false),
      '/api/console/rounds': () => ({ rounds: [] }),
      '/api/console/rounds/publish': () =>
        new Response(JSON.stringify({ started: true }), { status: 202 }),
    });
    renderAt('/operator/rounds');
    fireEvent.click(await screen.findByRole('button', { name: 'Publish round 1' }));
    fireEvent.click(screen.getByRole('button', { name: 'Publish now' }));
    await waitFor(() => expect(eventSources.length).toBeGreaterThan(0));
    eventSources.at(-1)!.dispatchEvent(
      new MessageEvent('progress', {
        data: JSON.stringify({
          phase: 'failed',
          index: 1,
          txHash: null,
          error: 'the chain is away',
        }),
      }),
    );
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Publishing stopped: the chain is away',
    );
  });

  it('says per round who claimed, who was claimed for, who was reminded and who has not claimed', async () => {
    serveMember(undefined, {
      '/api/console/me': () => operator,
      '/api/console/rounds/alerts': () => noAlerts,
      '/api/console/rounds/dry-run?filter=changed&offset=0': () => dryRun(true),
      '/api/console/rounds': () => ({
        rounds: [
          { ...round, index: 4 },
          { ...round, index: 1, claims: null },
          { ...round, index: 5, status: 'prepared', publishedAt: null, claims: null },
        ],
      }),
    });
    renderAt('/operator/rounds');
    const figures = await screen.findByRole('list', { name: 'Round 4: claims' });
    expect(
      within(figures)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Claimed themselves 812',
      'Claimed for them 3,140',
      'Reminded 96',
      'Not claimed yet 48',
    ]);
    // An older round is not counted; a round not published has no claims to count.
    expect(screen.getAllByText('Claims not counted (only the latest 3 rounds are)')).toHaveLength(
      1,
    );
    expect(screen.queryByRole('list', { name: 'Round 5: claims' })).toBeNull();
  });

  it("the guardian's view: a round in review this server did not build, and how to cancel it with a Safe", async () => {
    serveMember(undefined, {
      '/api/console/me': () => operator,
      '/api/console/rounds/alerts': () => ({
        distributor: DISTRIBUTOR,
        alerts: [
          {
            id: 2,
            kind: 'foreign_root',
            round: 2,
            text: 'Round 2 was proposed on chain with a root this server did not build.',
            raisedAt: '2026-11-03T09:00:00.000Z',
            txHash: '0x' + 'f'.repeat(64),
            resolvedAt: null,
          },
          {
            id: 1,
            kind: 'publisher_eth_low',
            round: null,
            text: 'The publisher has 0.01 ETH.',
            raisedAt: '2026-11-01T09:00:00.000Z',
            txHash: null,
            resolvedAt: '2026-11-01T10:00:00.000Z',
          },
        ],
        reports: [
          {
            id: 1,
            round: 3,
            email: 'maya@example.test',
            message: 'My care CAPs from October are missing.',
            at: '2026-11-03T10:00:00.000Z',
          },
        ],
      }),
      '/api/console/rounds/dry-run?filter=changed&offset=0': () => dryRun(true),
      '/api/console/rounds': () => ({
        rounds: [
          {
            ...round,
            index: 3,
            status: 'in_review',
            publishedAt: null,
            activeAt: '2026-11-04T09:00:00.000Z',
            claims: null,
          },
          { ...round, index: 2, status: 'cancelled', publishedAt: null, claims: null },
          round,
        ],
      }),
    });
    renderAt('/operator/rounds');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Round 2 was proposed on chain');
    expect(alert.textContent).toContain('cancelRoot(2)');
    expect(
      within(alert)
        .getByRole('link', { name: 'download cancel-round-2.json' })
        .getAttribute('href'),
    ).toBe('/api/console/rounds/2/cancel.json');
    // A resolved alert is kept below, not as an alert.
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.getByText('Resolved (1)')).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Rounds so far' });
    expect(within(table).getByText(/claimable from/)).toBeTruthy();
    expect(within(table).getByText('in review')).toBeTruthy();
    expect(within(table).getByText('cancelled by a guardian')).toBeTruthy();
    expect(within(table).getAllByRole('link', { name: 'tree.json' })).toHaveLength(3);
    // What a member said about their line in round 3.
    const reports = screen.getByRole('list', { name: "Members' reports" });
    expect(reports.textContent).toContain('Round 3');
    expect(reports.textContent).toContain('maya@example.test');
    expect(reports.textContent).toContain('My care CAPs from October are missing.');
  });

  it('says when nothing needs a guardian', async () => {
    serveMember(undefined, {
      '/api/console/me': () => operator,
      '/api/console/rounds/alerts': () => noAlerts,
      '/api/console/rounds/dry-run?filter=changed&offset=0': () => dryRun(true),
      '/api/console/rounds': () => ({ rounds: [] }),
    });
    renderAt('/operator/rounds');
    expect(
      await screen.findByText(/Nothing to act on: every round on chain was built here/),
    ).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
