// Members: search as you type (the start of a name, e-mail, wallet or referral code), sorted by
// arrival or name, a page of 50 at a time from the server.
import type { MemberSort } from '@crw/core/console';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import card from '../../../ui/card.module.css';
import { FormMessage } from '../../../ui/form-message';
import { MiddleTruncate } from '../../../ui/middle-truncate';
import { TextField } from '../../../ui/text-field';
import { membersQuery } from '../api/console';
import styles from './console.module.css';
import { ShowMore } from './show-more';
import { LabelledSelect } from './labelled-select';

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });
export const day = (iso: string) => dateFormat.format(new Date(iso));

/** What was typed, once typing paused for a moment. */
function useSettled(value: string, ms = 250): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value.trim()), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export function MembersScreen() {
  const [typed, setTyped] = useState('');
  const [sort, setSort] = useState<MemberSort>('joined');
  const q = useSettled(typed);
  const members = useInfiniteQuery(membersQuery(q, sort));
  const rows = members.data?.pages.flatMap((p) => p.members) ?? [];
  return (
    <section aria-labelledby="members-title">
      <h1 id="members-title" className={card.title}>
        Members
      </h1>
      <div className={styles.toolbar}>
        <TextField
          label="Search members"
          type="search"
          placeholder="Name, e-mail, wallet (0x…) or referral code"
          value={typed}
          onChange={setTyped}
          autoComplete="off"
        />
        <LabelledSelect
          id="members-sort"
          label="Sort"
          value={q ? 'joined' : sort}
          disabled={Boolean(q)}
          note={q ? 'Search results: newest first' : null}
          onChange={(e) => setSort(e.target.value as MemberSort)}
        >
          <option value="joined">Newest first</option>
          <option value="name">Name A–Z</option>
        </LabelledSelect>
      </div>
      <FormMessage error={members.isError ? members.error.message : null} />
      <p className={card.muted} aria-live="polite">
        {members.isPending || members.isPlaceholderData
          ? 'Looking for members…'
          : rows.length === 0
            ? q
              ? `No member’s name, e-mail, wallet or code starts with “${q}”.`
              : 'No members yet.'
            : `${rows.length}${members.hasNextPage ? '+' : ''} member${rows.length === 1 ? '' : 's'}${q ? ` starting with “${q}”` : ''}`}
      </p>
      {rows.length > 0 ? (
        <table
          className={`${styles.table} ${styles.stack} ${members.isPlaceholderData ? styles.stale : ''}`}
          aria-busy={members.isFetching || undefined}
        >
          <thead>
            <tr>
              <th scope="col">Member</th>
              <th scope="col">E-mail</th>
              <th scope="col">Wallet</th>
              <th scope="col">Code</th>
              <th scope="col">Joined</th>
              <th scope="col">Confirmed</th>
              <th scope="col" className={styles.num}>
                CAPs
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((m) => (
              <tr key={m.id}>
                <td data-label="Member">
                  <span>
                    <Link to={`/operator/members/${encodeURIComponent(m.id)}`}>
                      {m.name || m.username}
                    </Link>
                    <span className={styles.sub}>@{m.username}</span>
                  </span>
                </td>
                <td data-label="E-mail">{m.email}</td>
                <td data-label="Wallet">
                  {m.wallet ? <MiddleTruncate text={m.wallet} className={card.mono} /> : '—'}
                </td>
                <td data-label="Code" className={card.mono}>
                  {m.referralCode ?? '—'}
                </td>
                <td data-label="Joined">{day(m.joinedAt)}</td>
                <td data-label="Confirmed">
                  <span className={m.confirmed ? styles.yes : styles.no}>
                    {m.confirmed ? 'Yes' : 'Not yet'}
                  </span>
                </td>
                <td data-label="CAPs" className={styles.num}>
                  {m.caps.toLocaleString('en-GB')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <ShowMore pages={members} label="Show more members" />
    </section>
  );
}
