// The audit log: every operator action, newest first, and the whole log as CSV.
import { formatRemeExact } from '@crw/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { Link } from 'react-router';
import card from '../../../ui/card.module.css';
import { FormMessage } from '../../../ui/form-message';
import { MiddleTruncate } from '../../../ui/middle-truncate';
import { auditQuery } from '../api/console';
import styles from './console.module.css';
import { ShowMore } from './show-more';

const when = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium' }).format(
    new Date(iso),
  );

/** Actions whose target is a member's id (their page is a link away). */
const MEMBER_ACTION = /^(member|care-action|operator)\./;

/** A round's total in base units, as REME exact to the last base unit (as the publish question). */
const roundTotal = (action: string, key: string, value: unknown) =>
  action.startsWith('round.') && key === 'total' && typeof value === 'string' && /^\d+$/.test(value)
    ? `${formatRemeExact(value)} REME`
    : null;

const detailText = (action: string, detail: Record<string, unknown>) =>
  Object.entries(detail)
    .map(
      ([k, v]) =>
        `${k}: ${roundTotal(action, k, v) ?? (typeof v === 'string' ? v : JSON.stringify(v))}`,
    )
    .join(', ');

export function AuditScreen() {
  const audit = useInfiniteQuery(auditQuery);
  const entries = audit.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <section aria-labelledby="audit-title">
      <div className={styles.toolbar}>
        <h1 id="audit-title" className={card.title}>
          Audit log
        </h1>
        <a href="/api/console/audit.csv" download className={styles.tab}>
          <Download aria-hidden="true" size={16} /> Download CSV
        </a>
      </div>
      <p className={card.muted}>
        Every operator action: who, what, on whom, when, from which address. Entries are only ever
        added.
      </p>
      <FormMessage error={audit.isError ? audit.error.message : null} />
      {audit.isPending ? <p className={card.muted}>Loading the log…</p> : null}
      {entries.length > 0 ? (
        <table className={`${styles.table} ${styles.stack}`}>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">Action</th>
              <th scope="col">On</th>
              <th scope="col">Details</th>
              <th scope="col">From</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id}>
                <td data-label="When">{when(e.at)}</td>
                <td data-label="Who">{e.operatorEmail ?? 'API key (CLI)'}</td>
                <td data-label="Action" className={card.mono}>
                  {e.action}
                </td>
                <td data-label="On">
                  {e.target === null ? (
                    '—'
                  ) : MEMBER_ACTION.test(e.action) ? (
                    <Link to={`/operator/members/${encodeURIComponent(e.target)}`}>
                      <MiddleTruncate text={e.target} />
                    </Link>
                  ) : (
                    <MiddleTruncate text={e.target} />
                  )}
                </td>
                <td data-label="Details">
                  <span>
                    {detailText(e.action, e.detail) || '—'}
                    {e.idempotencyKey ? (
                      <span className={styles.sub}>key {e.idempotencyKey}</span>
                    ) : null}
                  </span>
                </td>
                <td data-label="From" className={card.mono}>
                  {e.ip ?? '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : audit.isSuccess ? (
        <p className={card.muted}>Nothing recorded yet.</p>
      ) : null}
      <ShowMore pages={audit} label="Show older entries" />
    </section>
  );
}
