// The console's mail outbox: pending, sent and failing mails, each failing one with its error, newest
// first, 50 at a time; a waiting mail can be retried now. Bodies never reach the console (they hold
// confirmation links).
import {
  MAIL_SENT_COUNT_CAP,
  type ConsoleMail,
  type ConsoleMailItem,
  type MailFilter,
} from '@crw/core/console';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../ui/button';
import card from '../../../ui/card.module.css';
import { FormMessage } from '../../../ui/form-message';
import { ToggleGroup } from '../../../ui/toggle-group';
import { notify } from '../../../ui/toaster';
import { mailQuery, retryMail } from '../api/console';
import { when, number } from './format';
import styles from './console.module.css';
import { ShowMore } from './show-more';
import mailStyles from './mail.module.css';

const statusTag: Record<ConsoleMailItem['status'], { text: string; className?: string }> = {
  failing: { text: 'Failing', className: mailStyles.failing },
  pending: { text: 'Pending', className: mailStyles.pending },
  sent: { text: 'Sent', className: styles.yes },
};

const emptyText: Record<MailFilter, string> = {
  all: 'No mail has been sent yet.',
  failing: 'No failing mails: nothing is stuck.',
  pending: 'No mails are waiting to be sent.',
  sent: 'No mail has been sent yet.',
};

function filterOptions(counts: ConsoleMail['counts'] | undefined): Array<[MailFilter, string]> {
  const n = (value: number | undefined, capped = false) =>
    value === undefined ? '' : ` (${number(value)}${capped ? '+' : ''})`;
  return [
    ['all', 'All'],
    ['failing', `Failing${n(counts?.failing)}`],
    ['pending', `Pending${n(counts?.pending)}`],
    ['sent', `Sent${n(counts?.sent, counts?.sentCapped)}`],
  ];
}

function RetryButton({ mail }: { mail: ConsoleMailItem }) {
  const client = useQueryClient();
  const retry = useMutation({
    mutationFn: () => retryMail(mail.id),
    onSuccess: async () => {
      notify.success(`The mail to ${mail.to} is being sent again now.`);
      await client.invalidateQueries({ queryKey: ['console', 'mail'] });
    },
    onError: (error) => notify.error(error.message),
  });
  return (
    <Button
      variant="secondary"
      className={card.small}
      busy={retry.isPending}
      onClick={() => retry.mutate()}
      aria-label={`Retry the mail to ${mail.to}: ${mail.subject}`}
    >
      Retry
    </Button>
  );
}

export function MailScreen() {
  const [status, setStatus] = useState<MailFilter>('all');
  const mail = useInfiniteQuery(mailQuery(status));
  const mails = mail.data?.pages.flatMap((p) => p.mails) ?? [];
  const counts = mail.data?.pages[0]?.counts;
  return (
    <section aria-labelledby="mail-title">
      <h1 id="mail-title" className={card.title}>
        Mail
      </h1>
      <p className={card.muted}>
        The outbox: every mail the app sends, newest first. A failing mail is tried again on its
        own, a little later each time; Retry sends it now.
      </p>
      {counts ? (
        <p className={card.muted} aria-live="polite">
          {number(counts.failing)} failing · {number(counts.pending)} pending ·{' '}
          {counts.sentCapped ? `over ${number(MAIL_SENT_COUNT_CAP)}` : number(counts.sent)} sent
        </p>
      ) : null}
      <div className={styles.toolbar}>
        <ToggleGroup
          label="Show mails"
          value={status}
          onChange={setStatus}
          options={filterOptions(counts)}
        />
      </div>
      <FormMessage error={mail.isError ? mail.error.message : null} />
      {mail.isPending ? <p className={card.muted}>Loading the outbox…</p> : null}
      {mails.length > 0 ? (
        <table
          className={`${styles.table} ${styles.stack} ${mail.isPlaceholderData ? styles.stale : ''}`}
          aria-label="Mails"
          aria-busy={mail.isFetching || undefined}
        >
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col">To</th>
              <th scope="col">Subject</th>
              <th scope="col" className={styles.num}>
                Attempts
              </th>
              <th scope="col">Queued</th>
              <th scope="col">Sent or next try</th>
              <th scope="col">Error</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {mails.map((m) => (
              <tr key={m.id}>
                <td data-label="Status">
                  <span className={statusTag[m.status].className}>{statusTag[m.status].text}</span>
                </td>
                <td data-label="To">{m.to}</td>
                <td data-label="Subject">{m.subject}</td>
                <td data-label="Attempts" className={styles.num}>
                  {number(m.attempts)}
                </td>
                <td data-label="Queued">{when(m.createdAt)}</td>
                <td data-label="Sent or next try">
                  {m.sentAt
                    ? when(m.sentAt)
                    : m.nextAttemptAt
                      ? `Next try ${when(m.nextAttemptAt)}`
                      : '—'}
                </td>
                <td data-label="Error">
                  {m.lastError && m.status !== 'sent' ? (
                    <span className={mailStyles.error}>{m.lastError}</span>
                  ) : (
                    '—'
                  )}
                </td>
                <td data-label="Action">{m.status === 'sent' ? '—' : <RetryButton mail={m} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : mail.isSuccess && !mail.isPlaceholderData ? (
        <p className={card.muted}>{emptyText[status]}</p>
      ) : null}
      <ShowMore pages={mail} label="Show more mails" />
    </section>
  );
}
