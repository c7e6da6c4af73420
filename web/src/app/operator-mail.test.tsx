// The console's mail outbox in the browser: failing mails show their error, Retry posts
// to the mail's retry path and reloads the list, the filter asks the server for that status; the
// notification mails in a view of their own, in words, with their counts and no action.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { appTestHooks, renderAt, serveMember } from '../test-fixtures';

appTestHooks();

const operator = { userId: 'op1', email: 'op@example.test', name: 'Olive Operator' };
const failing = {
  id: 42,
  to: 'ada@example.test',
  subject: 'Confirm your e-mail address',
  status: 'failing',
  attempts: 3,
  lastError: 'connect ECONNREFUSED 127.0.0.1:2525',
  createdAt: '2026-11-01T10:00:00.000Z',
  nextAttemptAt: '2026-11-01T10:05:00.000Z',
  sentAt: null,
};
const sent = {
  id: 41,
  to: 'bob@example.test',
  subject: 'Welcome',
  status: 'sent',
  attempts: 1,
  lastError: null,
  createdAt: '2026-11-01T09:00:00.000Z',
  nextAttemptAt: null,
  sentAt: '2026-11-01T09:00:01.000Z',
};
const counts = { pending: 0, failing: 1, sent: 10_000, sentCapped: true };

describe('the mail outbox', () => {
  it('shows failing mails with their error, and Retry posts to the mail’s retry path', async () => {
    let lists = 0;
    serveMember(undefined, {
      '/api/console/me': () => operator,
      '/api/console/mail?status=all': () => {
        lists += 1;
        return { mails: [failing, sent], nextBefore: null, counts };
      },
      '/api/console/mail?status=failing': () => ({ mails: [failing], nextBefore: null, counts }),
      '/api/console/mail/42/retry': () => ({
        mail: { ...failing, nextAttemptAt: failing.createdAt },
      }),
    });
    const served = globalThis.fetch;
    const posts: string[] = [];
    vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
      if (init?.method === 'POST') posts.push(String(url));
      return served(url, init);
    });
    renderAt('/operator/mail');

    const table = await screen.findByRole('table', { name: 'Mails' });
    expect(within(table).getByText('connect ECONNREFUSED 127.0.0.1:2525')).toBeTruthy();
    expect(within(table).getByText('Failing')).toBeTruthy();
    expect(screen.getByText(/1 failing · 0 pending · over 10,000 sent/)).toBeTruthy();
    // Only a waiting mail has a Retry button.
    expect(within(table).getAllByRole('button', { name: /^Retry/ })).toHaveLength(1);

    fireEvent.click(
      within(table).getByRole('button', {
        name: 'Retry the mail to ada@example.test: Confirm your e-mail address',
      }),
    );
    expect(
      await screen.findByText('The mail to ada@example.test is being sent again now.'),
    ).toBeTruthy();
    expect(posts).toEqual(['/api/console/mail/42/retry']);
    await waitFor(() => expect(lists).toBe(2)); // the list was loaded again

    fireEvent.click(screen.getByRole('button', { name: 'Failing (1)' }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Failing (1)' }).getAttribute('aria-pressed')).toBe(
        'true',
      ),
    );
    await waitFor(() => expect(screen.queryByText('bob@example.test')).toBeNull());
    expect(screen.getByText('ada@example.test')).toBeTruthy();
  });

  it('says so when a retry is refused, and shows an empty outbox', async () => {
    serveMember(undefined, {
      '/api/console/me': () => operator,
      '/api/console/mail?status=all': () => ({
        mails: [{ ...failing, status: 'pending', attempts: 0, lastError: null }],
        nextBefore: null,
        counts: { pending: 1, failing: 0, sent: 0, sentCapped: false },
      }),
      '/api/console/mail?status=failing': () => ({
        mails: [],
        nextBefore: null,
        counts: { pending: 1, failing: 0, sent: 0, sentCapped: false },
      }),
      '/api/console/mail/42/retry': () =>
        new Response(
          JSON.stringify({ code: 'conflict', message: 'This mail has already been sent.' }),
          { status: 409 },
        ),
    });
    renderAt('/operator/mail');
    fireEvent.click(await screen.findByRole('button', { name: /^Retry the mail/ }));
    expect(await screen.findByText('This mail has already been sent.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Failing (0)' }));
    expect(await screen.findByText('No failing mails: nothing is stuck.')).toBeTruthy();
  });

  it('shows the notification mails apart, in words, with their counts and no Retry', async () => {
    const note = {
      id: 9,
      to: 'ada@example.test',
      topic: 'rounds',
      template: 'claimed-for-you',
      subject: 'Claimed for you: 200.00 REME',
      status: 'sent',
      attempts: 1,
      lastError: null,
      createdAt: '2026-11-01T10:00:00.000Z',
      sentAt: '2026-11-01T10:00:02.000Z',
    };
    const noteCounts = {
      pending: 2,
      failing: 1,
      sent: 10_000,
      sentCapped: true,
      skipped: 3,
      skippedCapped: false,
    };
    serveMember(undefined, {
      '/api/console/me': () => operator,
      '/api/console/mail?status=all': () => ({ mails: [sent], nextBefore: null, counts }),
      '/api/console/mail/notifications?status=all': () => ({
        mails: [
          note,
          {
            ...note,
            id: 8,
            to: 'bob@example.test',
            topic: 'credits',
            template: 'credit',
            subject: null,
            status: 'failing',
            attempts: 2,
            lastError: 'connect ECONNREFUSED',
            sentAt: null,
          },
          { ...note, id: 7, template: 'reminder', subject: null, status: 'skipped', sentAt: null },
          { ...note, id: 6, template: 'round', subject: null, status: 'pending', sentAt: null },
          { ...note, id: 5, topic: 'credits', template: 'digest' },
        ],
        nextBefore: null,
        counts: noteCounts,
      }),
      '/api/console/mail/notifications?status=skipped': () => ({
        mails: [],
        nextBefore: null,
        counts: { ...noteCounts, skipped: 0 },
      }),
    });
    renderAt('/operator/mail');
    // The outbox holds the account mails.
    const outbox = await screen.findByRole('table', { name: 'Mails' });
    expect(within(outbox).getByText('Welcome')).toBeTruthy();

    fireEvent.click(screen.getByRole('link', { name: 'Notifications' }));
    const table = await screen.findByRole('table', { name: 'Notification mails' });
    expect(screen.getByRole('link', { name: 'Notifications' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(screen.queryByRole('table', { name: 'Mails' })).toBeNull();
    const rows = within(table).getAllByRole('row').slice(1);
    const cell = (row: HTMLElement, label: string) =>
      row.querySelector(`td[data-label="${label}"]`)!.textContent;
    expect(rows.map((r) => cell(r, 'Mail'))).toEqual([
      'Claimed for youClaimed for you: 200.00 REME',
      'A credit',
      'Reminder',
      'A round to claim',
      'DigestClaimed for you: 200.00 REME',
    ]);
    expect(rows.map((r) => cell(r, 'Topic'))).toEqual([
      'Rounds',
      'CAPs earned',
      'Rounds',
      'Rounds',
      'CAPs earned',
    ]);
    expect(rows.map((r) => cell(r, 'Status'))).toEqual([
      'Sent',
      'Failing',
      'Skipped',
      'Pending',
      'Sent',
    ]);
    expect(cell(rows[1]!, 'Error')).toBe('connect ECONNREFUSED');
    expect(cell(rows[1]!, 'Attempts')).toBe('2');
    expect(cell(rows[1]!, 'To')).toBe('bob@example.test');
    expect(within(table).queryAllByRole('button')).toHaveLength(0);
    expect(screen.getByText('1 failing · 2 pending · over 10,000 sent · 3 skipped')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Skipped (3)' }));
    expect(await screen.findByText('No notification mail was skipped.')).toBeTruthy();
  });
});
