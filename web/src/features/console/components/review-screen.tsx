// The console's review queue: joinings whose rewards are held, grouped by the network they signed
// up from or by the member who referred them, flagged ones first, each with the signals it raised,
// the credits it would pay and a link to the member's whole history. The operator releases or voids
// one joining or a whole group's, with a note the audit log keeps.
import type { ReviewDecision, ReviewSubject } from '@crw/core/console';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../ui/button';
import card from '../../../ui/card.module.css';
import { FormMessage } from '../../../ui/form-message';
import { TextField } from '../../../ui/text-field';
import { ToggleGroup } from '../../../ui/toggle-group';
import { notify } from '../../../ui/toaster';
import { decideHeldRewards, reviewQueueQuery } from '../api/console';
import { when, number } from './format';
import styles from './console.module.css';

const heldCaps = (subjects: ReviewSubject[]) =>
  subjects.reduce((sum, s) => sum + s.credits.reduce((n, c) => n + c.caps, 0), 0);

type Grouping = 'network' | 'referrer';

/** A group of joinings: its heading, what a decision on all of it names, and its joinings. */
interface Group {
  title: string;
  target: Omit<ReviewDecision, 'note' | 'outcome'> | null;
  what: string;
  subjects: ReviewSubject[];
}

/** The joinings by network or by referrer, the groups with most flagged first. */
function groups(subjects: ReviewSubject[], by: Grouping): Group[] {
  const grouped = new Map<string, Group>();
  for (const s of subjects) {
    const group: Omit<Group, 'subjects'> =
      by === 'network'
        ? s.network
          ? {
              title: s.network,
              target: { network: s.network },
              what: `every joining from ${s.network}`,
            }
          : { title: 'Network not kept', target: null, what: '' }
        : s.referrer
          ? {
              title: `Referred by ${s.referrer.name || 'a member'}`,
              target: { referrer: s.referrer.id },
              what: `every joining ${s.referrer.name || 'this member'} referred`,
            }
          : { title: 'Joined without a referral', target: null, what: '' };
    const key = `${group.title}\u0000${JSON.stringify(group.target)}`;
    const found = grouped.get(key) ?? { ...group, subjects: [] };
    found.subjects.push(s);
    grouped.set(key, found);
  }
  const flagged = (g: Group) => g.subjects.filter((s) => s.flagged).length;
  return [...grouped.values()].sort(
    (a, b) => flagged(b) - flagged(a) || b.subjects.length - a.subjects.length,
  );
}

function creditText(subject: ReviewSubject): string {
  return subject.credits
    .map((c) =>
      c.kind === 'signup'
        ? `${c.caps} to themselves`
        : `${c.caps} to ${c.recipientName || 'a member'} (level ${c.level})`,
    )
    .join(', ');
}

type Decide = (decision: Omit<ReviewDecision, 'note'>, what: string) => void;

function Cluster({ group, decide, busy }: { group: Group; decide: Decide; busy: boolean }) {
  const { title, target, what, subjects } = group;
  const flagged = subjects.filter((s) => s.flagged).length;
  const id = `cluster-${title.replace(/[^a-z0-9]/gi, '-')}`;
  const scope = target && 'network' in target ? 'this network' : 'this referrer';
  return (
    <section className={card.card} aria-labelledby={id}>
      <h2 id={id} className={card.cardTitle}>
        {title}
      </h2>
      <p className={card.muted}>
        {number(subjects.length)} joining{subjects.length === 1 ? '' : 's'} ·{' '}
        {number(heldCaps(subjects))} CAPs held · {number(flagged)} waiting for review
      </p>
      {target ? (
        <div className={styles.decisions}>
          <Button
            variant="secondary"
            className={card.small}
            disabled={busy}
            onClick={() => decide({ outcome: 'release', ...target }, what)}
          >
            Release all from {scope}
          </Button>
          <Button
            variant="secondary"
            className={card.small}
            disabled={busy}
            onClick={() => decide({ outcome: 'void', ...target }, what)}
          >
            Void all from {scope}
          </Button>
        </div>
      ) : null}
      <table className={`${styles.table} ${styles.stack}`} aria-label={`Joinings: ${title}`}>
        <thead>
          <tr>
            <th scope="col">Member</th>
            <th scope="col">Referred by</th>
            <th scope="col">Signals</th>
            <th scope="col">Held credits (CAPs)</th>
            <th scope="col">Releases</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {subjects.map((s) => (
            <tr key={s.id}>
              <td data-label="Member">
                <div>
                  <Link to={`/operator/members/${encodeURIComponent(s.id)}`}>
                    <strong>{s.name || s.email}</strong>
                  </Link>
                  <br />
                  <span className={card.muted}>
                    {s.email} · joined {when(s.joinedAt)}
                  </span>
                </div>
              </td>
              <td data-label="Referred by">{s.referrer ? s.referrer.name || 'a member' : '—'}</td>
              <td data-label="Signals">
                {s.flags.length === 0 ? (
                  'None'
                ) : (
                  <ul className={styles.reasons}>
                    {s.flags.map((f) => (
                      <li key={f.signal}>
                        {f.reason}
                        {f.detail ? <span className={card.muted}> ({f.detail})</span> : null}
                      </li>
                    ))}
                  </ul>
                )}
              </td>
              <td data-label="Held credits (CAPs)">{creditText(s)}</td>
              <td data-label="Releases">
                {s.flagged ? 'Waits for you' : `By itself, ${when(s.releaseAt)}`}
              </td>
              <td data-label="Action">
                <div className={styles.decisions}>
                  <Button
                    variant="secondary"
                    className={card.small}
                    disabled={busy}
                    aria-label={`Release the rewards of ${s.email}`}
                    onClick={() => decide({ outcome: 'release', subjects: [s.id] }, s.email)}
                  >
                    Release
                  </Button>
                  <Button
                    variant="secondary"
                    className={card.small}
                    disabled={busy}
                    aria-label={`Void the rewards of ${s.email}`}
                    onClick={() => decide({ outcome: 'void', subjects: [s.id] }, s.email)}
                  >
                    Void
                  </Button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function ReviewScreen() {
  const client = useQueryClient();
  const queue = useQuery(reviewQueueQuery);
  const [note, setNote] = useState('');
  const [by, setBy] = useState<Grouping>('network');
  const [noteError, setNoteError] = useState<string | null>(null);
  const decision = useMutation({
    mutationFn: ({ body }: { body: ReviewDecision; what: string }) => decideHeldRewards(body),
    onSuccess: async (settled, { body, what }) => {
      const verb = body.outcome === 'release' ? 'Released' : 'Voided';
      notify.success(
        `${verb} ${number(settled.credits)} credit${settled.credits === 1 ? '' : 's'} of ${what}.`,
      );
      setNote('');
      await client.invalidateQueries({ queryKey: ['console'] });
    },
    onError: (error) => notify.error(error.message),
  });
  const decide: Decide = (target, what) => {
    if (!note.trim()) {
      setNoteError('Write why first: the note goes into the audit log with the decision.');
      document.getElementsByName('review-note')[0]?.focus();
      return;
    }
    setNoteError(null);
    decision.mutate({ body: { ...target, note: note.trim() } as ReviewDecision, what });
  };
  const subjects = queue.data?.subjects ?? [];
  return (
    <section aria-labelledby="review-title">
      <h1 id="review-title" className={card.title}>
        Review rewards
      </h1>
      <p className={card.muted}>
        A new member’s joining bonus and the referral credits it brings wait{' '}
        {queue.data ? `${number(queue.data.holdHours)} hours` : 'a while'} before any round pays
        them. Those with signals of a farm wait for you: release what is genuine (a care home shares
        one network), void what is not — voiding takes back all three referral levels. Every
        decision goes into the audit log with your note.
      </p>
      <div className={styles.reviewNote}>
        <TextField
          name="review-note"
          label="Note for the audit log"
          value={note}
          onChange={(value) => {
            setNote(value);
            if (value.trim()) setNoteError(null);
          }}
          maxLength={500}
          autoComplete="off"
          error={noteError}
        />
      </div>
      <div className={styles.toolbar}>
        <ToggleGroup
          label="Group joinings by"
          value={by}
          onChange={setBy}
          options={[
            ['network', 'Network'],
            ['referrer', 'Referrer'],
          ]}
        />
      </div>
      <FormMessage error={queue.isError ? queue.error.message : null} />
      {queue.isPending ? <p className={card.muted}>Loading the held rewards…</p> : null}
      {queue.data && subjects.length === 0 ? (
        <p className={card.muted}>Nothing is held: every reward counts.</p>
      ) : null}
      {groups(subjects, by).map((group) => (
        <Cluster
          key={`${group.title}-${JSON.stringify(group.target)}`}
          group={group}
          decide={decide}
          busy={decision.isPending}
        />
      ))}
    </section>
  );
}
