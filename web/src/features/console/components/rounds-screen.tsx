// Distribution rounds: the next round's dry run (every member who gains, biggest first, in a
// virtualized table that fetches 200 rows at a time as it scrolls), publishing it with live
// progress from the server's event stream, and the rounds so far with their trees and, for the
// latest, what became of their REME (claimed by members, claimed for them, reminders, unclaimed).
import { formatReme, formatRemeExact } from '@crw/core';
import * as Dialog from '@radix-ui/react-dialog';
import {
  COUNTED_ROUNDS,
  DRY_RUN_PAGE,
  roundProgress,
  type RoundClaims,
  type RoundPhase,
  type RoundProgress,
} from '@crw/core/console';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Check, Circle, LoaderCircle } from 'lucide-react';
import { Fragment, useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../ui/button';
import card from '../../../ui/card.module.css';
import { CardSection } from '../../../ui/card-section';
import dialog from '../../../ui/dialog.module.css';
import { FormMessage } from '../../../ui/form-message';
import { MiddleTruncate } from '../../../ui/middle-truncate';
import { TextField } from '../../../ui/text-field';
import { notify } from '../../../ui/toaster';
import {
  dryRunPageQuery,
  publishRound,
  refreshDryRun,
  roundHistoryQuery,
  type DryRunFilter,
} from '../api/console';
import { clock, number, when } from './format';
import { GuardianView } from './guardian-view';
import styles from './console.module.css';
import { LabelledSelect } from './labelled-select';
import rounds from './rounds.module.css';

const ROW_HEIGHT = 44;
/** How each round's status reads (decision 0027: a round waits in review before it pays). */
const STATUS_LABELS: Record<string, string> = {
  prepared: 'prepared',
  sent: 'sent',
  in_review: 'in review',
  published: 'published',
  cancelled: 'cancelled by a guardian',
};
/** The statuses of a round on chain, whose tree.json is public. */
const ON_CHAIN = ['in_review', 'published', 'cancelled'];
/** A browser lays out about 33 million pixels at most: beyond this many rows the table could not
 * scroll to the end, so it lists the biggest gains and a wallet search finds anyone else. */
const MAX_SCROLL_ROWS = 700_000;

function DryRunTable({ filter, q }: { filter: DryRunFilter; q: string }) {
  const first = useQuery(dryRunPageQuery(filter, q, 0));
  const scroller = useRef<HTMLDivElement>(null);
  const count = Math.min(first.data?.matching ?? 0, MAX_SCROLL_ROWS);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read afresh on every render by design; this table is not memoized.
  const virtual = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const items = virtual.getVirtualItems();
  const pages = [...new Set(items.map((i) => Math.floor(i.index / DRY_RUN_PAGE)))];
  const loaded = useQueries({ queries: pages.map((p) => dryRunPageQuery(filter, q, p)) });
  const rowAt = (index: number) => {
    const page = loaded[pages.indexOf(Math.floor(index / DRY_RUN_PAGE))]?.data;
    return page?.rows[index - page.offset];
  };
  if (first.isError) return <FormMessage error={first.error.message} />;
  if (!first.data) return <p className={card.muted}>Working out the round…</p>;
  if (count === 0)
    return (
      <p className={card.muted}>
        {filter === 'new' ? 'No new member in this round.' : 'Nobody gains anything in this round.'}
      </p>
    );
  const capped = (first.data?.matching ?? 0) > count;
  return (
    <>
      {capped ? (
        <p className={card.muted}>
          The table lists the {count.toLocaleString('en-GB')} biggest gains; find anyone else by the
          start of their wallet.
        </p>
      ) : null}
      <div role="table" aria-label="Who gains in the next round" aria-rowcount={count + 1}>
        <div role="rowgroup">
          <div role="row" className={`${rounds.row} ${rounds.head}`} aria-rowindex={1}>
            <span role="columnheader">Wallet</span>
            <span role="columnheader" className={styles.num}>
              Now
            </span>
            <span role="columnheader" className={styles.num}>
              After
            </span>
            <span role="columnheader" className={styles.num}>
              Gain
            </span>
          </div>
        </div>
        <div ref={scroller} className={rounds.scroller} tabIndex={0} role="rowgroup">
          <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const row = rowAt(item.index);
              return (
                <div
                  key={item.key}
                  role="row"
                  aria-rowindex={item.index + 2}
                  className={rounds.row}
                  style={{ height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
                >
                  {row ? (
                    <>
                      <span role="cell">
                        <Link to={`/operator/members/${encodeURIComponent(row.userId)}`}>
                          <MiddleTruncate text={row.address} className={card.mono} />
                        </Link>
                      </span>
                      <span role="cell" className={styles.num}>
                        {formatReme(row.previous)}
                      </span>
                      <span role="cell" className={styles.num}>
                        {formatReme(row.next)}
                      </span>
                      <span role="cell" className={`${styles.num} ${rounds.gain}`}>
                        +{formatReme(BigInt(row.next) - BigInt(row.previous))}
                        {row.previous === '0' ? <span className={styles.yes}>new</span> : null}
                      </span>
                    </>
                  ) : (
                    <span role="cell" className={card.muted}>
                      Loading…
                    </span>
                  )}
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </>
  );
}

const STEPS: Array<{ label: string; done: RoundPhase[]; active: RoundPhase[] }> = [
  {
    label: 'Work out every member’s amount and store the tree',
    active: ['preparing'],
    done: ['prepared', 'sent', 'published'],
  },
  {
    label: 'Sign and send the publishing transaction',
    active: ['prepared'],
    done: ['sent', 'published'],
  },
  { label: 'Confirmed on the chain', active: ['sent'], done: ['published'] },
];

/** Follows the publish on the server's event stream until it ends, then refreshes the console. */
function useProgress(following: boolean, stop: () => void) {
  const client = useQueryClient();
  const [progress, setProgress] = useState<RoundProgress | null>(null);
  useEffect(() => {
    if (!following) return;
    const source = new EventSource('/api/console/rounds/progress');
    source.addEventListener('progress', (event) => {
      const parsed = roundProgress.safeParse(JSON.parse((event as MessageEvent<string>).data));
      if (!parsed.success) return;
      setProgress(parsed.data);
      if (!['published', 'failed', 'idle'].includes(parsed.data.phase)) return;
      source.close();
      stop();
      if (parsed.data.phase === 'published')
        notify.success(`Round ${parsed.data.index} is published on the chain.`);
      void client.invalidateQueries({ queryKey: ['console'] });
    });
    return () => source.close();
  }, [following, stop, client]);
  return progress;
}

/** What a publish would put on the chain, as the confirmation names it. */
interface Figures {
  index: number;
  total: string;
  members: number;
  changed: number;
  computedAt: string;
}

const members = (n: number) => `${number(n)} member${n === 1 ? '' : 's'}`;

/** "Publish round 4: 1,200.00 REME in total to 37 members?", the total exact to the last base unit:
 * what the operator agrees to send. */
const question = (
  verb: 'Publish' | 'Finish',
  r: { index: number; total: string; members: number },
) =>
  `${verb} round ${r.index}: ${formatRemeExact(r.total)} REME in total to ${members(r.members)}?`;

function Publish({ figures, openRound }: { figures: Figures; openRound: number | null }) {
  const [asking, setAsking] = useState(false);
  const [following, setFollowing] = useState(false);
  const stop = useCallback(() => setFollowing(false), []);
  const progress = useProgress(following, stop);
  // A round started earlier is published as it was stored: its figures are in the history.
  const history = useQuery(roundHistoryQuery);
  const stored = history.data?.rounds.find((r) => r.index === openRound);
  // Set in the press itself: a second press before React draws the busy button sends nothing.
  const pressed = useRef(false);
  const [sending, setSending] = useState(false);
  const publish = useMutation({
    mutationFn: publishRound,
    onSuccess: () => {
      setAsking(false);
      setFollowing(true);
    },
    onError: (error) => notify.error(error.message),
    onSettled: () => {
      pressed.current = false;
      setSending(false);
    },
  });
  const press = () => {
    if (pressed.current) return;
    pressed.current = true;
    setSending(true);
    publish.mutate();
  };
  const busy = sending || publish.isPending;
  const phase = progress?.phase;
  const { index, changed } = figures;
  return (
    <div>
      {openRound !== null ? (
        <p className={card.muted}>
          Round {openRound} was started earlier and not finished: publishing finishes it first.
        </p>
      ) : null}
      <Button
        disabled={following || busy || (changed === 0 && openRound === null)}
        onClick={() => setAsking(true)}
      >
        {openRound !== null ? `Finish round ${openRound}` : `Publish round ${index}`}
      </Button>
      <Dialog.Root
        open={asking}
        onOpenChange={(next) => (!next && !busy ? setAsking(false) : undefined)}
      >
        <Dialog.Portal>
          <Dialog.Overlay className={dialog.overlay} />
          <Dialog.Content className={dialog.dialog} role="alertdialog">
            <Dialog.Title className={rounds.dialogTitle}>
              {openRound === null
                ? question('Publish', figures)
                : stored
                  ? question('Finish', stored)
                  : `Finish round ${openRound}?`}
            </Dialog.Title>
            <Dialog.Description>
              {openRound !== null
                ? 'It is published as it was stored when it was started.'
                : `${members(changed)} gain REME they can claim, as worked out at ${clock(figures.computedAt)}.`}{' '}
              A published round cannot be taken back.
            </Dialog.Description>
            <div className={`${card.row} ${rounds.actions}`}>
              <Button className={card.small} busy={busy} onClick={press}>
                Publish now
              </Button>
              <Dialog.Close asChild>
                <Button variant="secondary" className={card.small} disabled={busy}>
                  Cancel
                </Button>
              </Dialog.Close>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
      {progress && phase !== 'idle' ? (
        <ol className={rounds.steps} aria-label="Publishing progress" aria-live="polite">
          {STEPS.map((step) => {
            const done = phase !== undefined && step.done.includes(phase);
            const active = phase !== undefined && step.active.includes(phase);
            return (
              <li key={step.label} className={done ? rounds.done : active ? rounds.active : ''}>
                {done ? (
                  <Check aria-hidden="true" size={18} />
                ) : active ? (
                  <LoaderCircle aria-hidden="true" size={18} className={rounds.spin} />
                ) : (
                  <Circle aria-hidden="true" size={18} />
                )}
                <span>
                  {step.label}
                  <span className={styles.sub}>
                    {done ? 'Done' : active ? 'Working…' : 'Waiting'}
                  </span>
                </span>
              </li>
            );
          })}
        </ol>
      ) : null}
      {phase === 'failed' ? <FormMessage error={`Publishing stopped: ${progress?.error}`} /> : null}
    </div>
  );
}

/** When the dry run was worked out, and a Refresh that has the server work it out again now. */
function WorkedOut({ computedAt }: { computedAt: string }) {
  const client = useQueryClient();
  const refresh = useMutation({
    mutationFn: async () => {
      await refreshDryRun();
      await client.invalidateQueries({ queryKey: ['console', 'dry-run'] });
    },
    onError: (error) => notify.error(error.message),
  });
  return (
    <div className={`${card.row} ${rounds.worked}`}>
      <p className={card.muted}>
        Worked out at <time dateTime={computedAt}>{clock(computedAt)}</time>
      </p>
      <Button
        variant="secondary"
        className={card.small}
        busy={refresh.isPending}
        onClick={() => refresh.mutate()}
      >
        Refresh
      </Button>
    </div>
  );
}

/** A round's claims in plain words, each figure grouped: "Claimed themselves 812 · …". */
function ClaimsLine({ index, claims }: { index: number; claims: RoundClaims | null }) {
  if (!claims)
    return (
      <p className={rounds.notCounted}>
        Claims not counted (only the latest {COUNTED_ROUNDS} rounds are)
      </p>
    );
  const figures: Array<[string, number]> = [
    ['Claimed themselves', claims.claimedThemselves],
    ['Claimed for them', claims.claimedForThem],
    ['Reminded', claims.reminded],
    ['Not claimed yet', claims.notClaimed],
  ];
  return (
    <div className={rounds.claims}>
      <ul aria-label={`Round ${index}: claims`}>
        {figures.map(([label, n]) => (
          <li key={label}>
            {label} <strong>{number(n)}</strong>
          </li>
        ))}
      </ul>
      <span className={rounds.counted}>
        counted at <time dateTime={claims.countedAt}>{clock(claims.countedAt)}</time>
      </span>
    </div>
  );
}

export function RoundsScreen() {
  const [filter, setFilter] = useState<DryRunFilter>('changed');
  const [typed, setTyped] = useState('');
  const q = /^0x[0-9a-fA-F]{0,40}$/.test(typed.trim()) ? typed.trim() : '';
  const summary = useQuery(dryRunPageQuery(filter, q, 0));
  const history = useQuery(roundHistoryQuery);
  const s = summary.data;
  return (
    <section aria-labelledby="rounds-title">
      <h1 id="rounds-title" className={card.title}>
        Distribution rounds
      </h1>
      <GuardianView />
      <CardSection
        titleId="next-round"
        title={s ? `Round ${s.index}: the dry run` : 'The next round'}
      >
        {s ? (
          <>
            <dl className={styles.facts}>
              <dt>Members in the round</dt>
              <dd>{s.members.toLocaleString('en-GB')}</dd>
              <dt>REME in total</dt>
              <dd>{formatReme(s.total)}</dd>
              <dt>Members who gain</dt>
              <dd>{s.changed.toLocaleString('en-GB')}</dd>
              <dt>New members</dt>
              <dd>{s.newMembers.toLocaleString('en-GB')}</dd>
            </dl>
            <WorkedOut computedAt={s.computedAt} />
            <Publish figures={s} openRound={s.openRound} />
          </>
        ) : (
          <p className={card.muted}>
            {summary.isError ? summary.error.message : 'Working out the round…'}
          </p>
        )}
      </CardSection>
      <CardSection titleId="dry-run" title="Who gains">
        <div className={styles.toolbar}>
          <TextField
            label="Wallet starts with"
            value={typed}
            onChange={setTyped}
            placeholder="0x…"
            autoComplete="off"
          />
          <LabelledSelect
            id="dry-run-filter"
            label="Show"
            value={filter}
            onChange={(e) => setFilter(e.target.value as DryRunFilter)}
          >
            <option value="changed">Everyone who gains</option>
            <option value="new">New members only</option>
          </LabelledSelect>
        </div>
        {s ? (
          <p className={card.muted}>
            {s.matching.toLocaleString('en-GB')} member{s.matching === 1 ? '' : 's'}
          </p>
        ) : null}
        <DryRunTable filter={filter} q={q} />
      </CardSection>
      <CardSection titleId="round-history" title="Rounds so far">
        {history.data?.rounds.length ? (
          <div className={styles.scroll}>
            <table className={`${styles.table} ${styles.stack}`} aria-label="Rounds so far">
              <thead>
                <tr>
                  <th scope="col">Round</th>
                  <th scope="col">Status</th>
                  <th scope="col" className={styles.num}>
                    Members
                  </th>
                  <th scope="col" className={styles.num}>
                    REME in total
                  </th>
                  <th scope="col">Root</th>
                  <th scope="col">Transaction</th>
                  <th scope="col">Tree</th>
                </tr>
              </thead>
              <tbody>
                {history.data.rounds.map((r) => (
                  <Fragment key={r.index}>
                    <tr className={r.status === 'published' ? rounds.hasClaims : undefined}>
                      <td data-label="Round">
                        {r.index}
                        <span className={styles.sub}>{when(r.publishedAt ?? r.createdAt)}</span>
                      </td>
                      <td data-label="Status" className={rounds.nowrap}>
                        {STATUS_LABELS[r.status] ?? r.status}
                        {r.status === 'in_review' && r.activeAt ? (
                          <span className={styles.sub}>claimable from {when(r.activeAt)}</span>
                        ) : null}
                      </td>
                      <td data-label="Members" className={styles.num}>
                        {r.members.toLocaleString('en-GB')}
                      </td>
                      <td data-label="REME in total" className={styles.num}>
                        {formatReme(r.total)}
                      </td>
                      <td data-label="Root">
                        <MiddleTruncate text={r.root} className={card.mono} />
                      </td>
                      <td data-label="Transaction">
                        {r.txHash ? <MiddleTruncate text={r.txHash} className={card.mono} /> : '—'}
                      </td>
                      <td data-label="Tree">
                        {ON_CHAIN.includes(r.status) ? (
                          <a href={`/api/distributions/${r.index}/tree.json`} download>
                            tree.json
                          </a>
                        ) : (
                          '—'
                        )}
                      </td>
                    </tr>
                    {r.status === 'published' ? (
                      <tr className={rounds.claimsRow}>
                        <td colSpan={7}>
                          <ClaimsLine index={r.index} claims={r.claims} />
                        </td>
                      </tr>
                    ) : null}
                  </Fragment>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className={card.muted}>{history.isPending ? 'Loading…' : 'No round published yet.'}</p>
        )}
      </CardSection>
    </section>
  );
}
