// The console's mail, in two views: the outbox's account mails (pending, sent and failing, each
// failing one with its error, newest first, 50 at a time; a waiting mail can be retried now), and
// the notification mails about CAPs and rounds, sent after them (listed and counted; the worker
// tries a failing one again on its own). Bodies never reach the console (they hold confirmation
// links), nor a notification's figures.
import {
  MAIL_SENT_COUNT_CAP,
  type ConsoleMailItem,
  type ConsoleNotificationMailItem,
  type MailFilter,
  type NotificationMailFilter,
  type NotificationTemplate,
} from '@crw/core/console';
import {
  useInfiniteQuery,
  useMutation,
  useQueryClient,
  type InfiniteData,
  type UseInfiniteQueryResult,
} from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../../ui/button';
import card from '../../../ui/card.module.css';
import { FormMessage } from '../../../ui/form-message';
import { ToggleGroup } from '../../../ui/toggle-group';
import { notify } from '../../../ui/toaster';
import { mailQuery, notificationMailQuery, retryMail } from '../api/console';
import { when, number } from './format';
import styles from './console.module.css';
import { ShowMore } from './show-more';
import mailStyles from './mail.module.css';

type Status = ConsoleNotificationMailItem['status'];

const statusTag: Record<Status, { text: string; className?: string }> = {
  failing: { text: 'Failing', className: mailStyles.failing },
  pending: { text: 'Pending', className: mailStyles.pending },
  sent: { text: 'Sent', className: styles.yes },
  skipped: { text: 'Skipped', className: styles.no },
};

const FILTER_NAMES: Record<Exclude<NotificationMailFilter, 'all'>, string> = {
  failing: 'Failing',
  pending: 'Pending',
  sent: 'Sent',
  skipped: 'Skipped',
};

/** The counts of a page: exact, or capped ("10,000+" in a filter, "over 10,000" in the line). */
type Counts = Partial<Record<Status, number>> & { sentCapped?: boolean; skippedCapped?: boolean };
const cappedOf = (counts: Counts, status: Status) =>
  (status === 'sent' && counts.sentCapped) || (status === 'skipped' && counts.skippedCapped);

function filterOptions<F extends MailFilter | NotificationMailFilter>(
  filters: readonly F[],
  counts: Counts | undefined,
): Array<[F, string]> {
  return filters.map((f) => {
    if (f === 'all') return [f, 'All'];
    const status = f as Status;
    const n = counts?.[status];
    const shown = n === undefined ? '' : ` (${number(n)}${cappedOf(counts!, status) ? '+' : ''})`;
    return [f, `${FILTER_NAMES[status]}${shown}`];
  });
}

/** "1 failing · 0 pending · over 10,000 sent": the statuses in the order given. */
function countsLine(statuses: readonly Status[], counts: Counts) {
  return statuses
    .map((s) => {
      const n = counts[s] ?? 0;
      return `${cappedOf(counts, s) ? `over ${number(MAIL_SENT_COUNT_CAP)}` : number(n)} ${s}`;
    })
    .join(' · ');
}

interface Column<T> {
  label: string;
  num?: boolean;
  cell: (mail: T) => ReactNode;
}

type Pages<T> = UseInfiniteQueryResult<
  InfiniteData<{ mails: T[]; counts: Counts; nextBefore: number | null }>
>;

/** A filter, the counts, and the mails newest first in a table (a card per mail on a phone). */
function MailList<T extends { id: number }, F extends MailFilter | NotificationMailFilter>({
  pages,
  label,
  filters,
  filter,
  onFilter,
  columns,
  emptyText,
}: {
  pages: Pages<T>;
  label: string;
  filters: readonly F[];
  filter: F;
  onFilter: (f: F) => void;
  columns: Array<Column<T>>;
  emptyText: string;
}) {
  const mails = pages.data?.pages.flatMap((p) => p.mails) ?? [];
  const counts = pages.data?.pages[0]?.counts;
  const statuses = filters.filter((f) => f !== 'all') as Status[];
  return (
    <>
      {counts ? (
        <p className={card.muted} aria-live="polite">
          {countsLine(statuses, counts)}
        </p>
      ) : null}
      <div className={styles.toolbar}>
        <div className={mailStyles.filters}>
          <ToggleGroup
            label={`Show ${label.toLowerCase()}`}
            value={filter}
            onChange={onFilter}
            options={filterOptions(filters, counts)}
          />
        </div>
      </div>
      <FormMessage error={pages.isError ? pages.error.message : null} />
      {pages.isPending ? <p className={card.muted}>Loading…</p> : null}
      {mails.length > 0 ? (
        <table
          className={`${styles.table} ${styles.stack} ${pages.isPlaceholderData ? styles.stale : ''}`}
          aria-label={label}
          aria-busy={pages.isFetching || undefined}
        >
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.label} scope="col" className={c.num ? styles.num : undefined}>
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {mails.map((m) => (
              <tr key={m.id}>
                {columns.map((c) => (
                  <td key={c.label} data-label={c.label} className={c.num ? styles.num : undefined}>
                    {c.cell(m)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      ) : pages.isSuccess && !pages.isPlaceholderData ? (
        <p className={card.muted}>{emptyText}</p>
      ) : null}
      <ShowMore pages={pages} label={`Show more ${label.toLowerCase()}`} />
    </>
  );
}

/** The columns both views share. */
const statusColumn = { label: 'Status', cell: (m: { status: Status }) => tagOf(m.status) };
const toColumn = { label: 'To', cell: (m: { to: string }) => m.to };
const attemptsColumn = {
  label: 'Attempts',
  num: true,
  cell: (m: { attempts: number }) => number(m.attempts),
};
const queuedColumn = { label: 'Queued', cell: (m: { createdAt: string }) => when(m.createdAt) };
const errorColumn = {
  label: 'Error',
  cell: (m: { status: Status; lastError: string | null }) =>
    m.lastError && m.status === 'failing' ? (
      <span className={mailStyles.error}>{m.lastError}</span>
    ) : (
      '—'
    ),
};

function tagOf(status: Status) {
  return <span className={statusTag[status].className}>{statusTag[status].text}</span>;
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

const accountEmptyText: Record<MailFilter, string> = {
  all: 'No mail has been sent yet.',
  failing: 'No failing mails: nothing is stuck.',
  pending: 'No mails are waiting to be sent.',
  sent: 'No mail has been sent yet.',
};

const ACCOUNT_FILTERS = ['all', 'failing', 'pending', 'sent'] as const;

const accountColumns: Array<Column<ConsoleMailItem>> = [
  statusColumn,
  toColumn,
  { label: 'Subject', cell: (m) => m.subject },
  attemptsColumn,
  queuedColumn,
  {
    label: 'Sent or next try',
    cell: (m) =>
      m.sentAt ? when(m.sentAt) : m.nextAttemptAt ? `Next try ${when(m.nextAttemptAt)}` : '—',
  },
  errorColumn,
  { label: 'Action', cell: (m) => (m.status === 'sent' ? '—' : <RetryButton mail={m} />) },
];

function AccountMails() {
  const [status, setStatus] = useState<MailFilter>('all');
  const pages = useInfiniteQuery(mailQuery(status));
  return (
    <>
      <p className={card.muted}>
        The outbox: every account and security mail the app sends, newest first. A failing mail is
        tried again on its own, a little later each time; Retry sends it now.
      </p>
      <MailList
        pages={pages}
        label="Mails"
        filters={ACCOUNT_FILTERS}
        filter={status}
        onFilter={setStatus}
        columns={accountColumns}
        emptyText={accountEmptyText[status]}
      />
    </>
  );
}

/** A notification mail's topic and template in words. */
const TOPIC_WORDS: Record<ConsoleNotificationMailItem['topic'], string> = {
  credits: 'CAPs earned',
  rounds: 'Rounds',
};
const TEMPLATE_WORDS: Record<string, string> & Record<NotificationTemplate, string> = {
  credit: 'A credit',
  round: 'A round to claim',
  reminder: 'Reminder',
  'claimed-for-you': 'Claimed for you',
  digest: 'Digest',
};

const noteEmptyText: Record<NotificationMailFilter, string> = {
  all: 'No notification mail yet.',
  failing: 'No failing notification mails: nothing is stuck.',
  pending: 'No notification mails are waiting to be sent.',
  sent: 'No notification mail has been sent yet.',
  skipped: 'No notification mail was skipped.',
};

const NOTE_FILTERS = ['all', 'failing', 'pending', 'sent', 'skipped'] as const;

const noteColumns: Array<Column<ConsoleNotificationMailItem>> = [
  statusColumn,
  toColumn,
  { label: 'Topic', cell: (m) => TOPIC_WORDS[m.topic] },
  {
    label: 'Mail',
    cell: (m) => (
      <span>
        {TEMPLATE_WORDS[m.template] ?? m.template}
        {m.subject ? <span className={styles.sub}>{m.subject}</span> : null}
      </span>
    ),
  },
  attemptsColumn,
  queuedColumn,
  { label: 'Sent', cell: (m) => (m.sentAt ? when(m.sentAt) : '—') },
  errorColumn,
];

function NotificationMails() {
  const [status, setStatus] = useState<NotificationMailFilter>('all');
  const pages = useInfiniteQuery(notificationMailQuery(status));
  return (
    <>
      <p className={card.muted}>
        Mails about the CAPs members earn and the rounds they can claim, newest first. They go out
        after every account mail; each is written as it is sent, and skipped when its member no
        longer wants it. A failing one is tried again on its own.
      </p>
      <MailList
        pages={pages}
        label="Notification mails"
        filters={NOTE_FILTERS}
        filter={status}
        onFilter={setStatus}
        columns={noteColumns}
        emptyText={noteEmptyText[status]}
      />
    </>
  );
}

const VIEWS = [
  ['account', 'Account mails'],
  ['notifications', 'Notifications'],
] as const;

export function MailScreen() {
  const [search] = useSearchParams();
  const view = search.get('view') === 'notifications' ? 'notifications' : 'account';
  return (
    <section aria-labelledby="mail-title">
      <h1 id="mail-title" className={card.title}>
        Mail
      </h1>
      <nav aria-label="Which mails" className={`${styles.tabs} ${mailStyles.views}`}>
        {VIEWS.map(([key, name]) => (
          <Link
            key={key}
            to={key === 'account' ? '/operator/mail' : '/operator/mail?view=notifications'}
            className={styles.tab}
            aria-current={view === key ? 'page' : undefined}
          >
            {name}
          </Link>
        ))}
      </nav>
      {view === 'notifications' ? <NotificationMails /> : <AccountMails />}
    </section>
  );
}
