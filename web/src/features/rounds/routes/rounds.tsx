// Every distribution round, for anyone (/rounds; issue 28, docs/decisions/0027): each round on
// chain with its root, total, members, when it was proposed and when it pays, its transactions
// and tree.json, and how to check it yourself — before it pays, during its review.
import { formatReme, publicRoundsResponse, shortAddress, type PublicRounds } from '@crw/core';
import { useQuery } from '@tanstack/react-query';
import { ExternalLink } from 'lucide-react';
import { Link } from 'react-router';
import { apiFetch } from '../../../lib/api-client';
import { formatMoment } from '../../../lib/dates';
import { explorerPage } from '../../../lib/explorer';
import card from '../../../ui/card.module.css';
import { MiddleTruncate } from '../../../ui/middle-truncate';
import { PageLoading } from '../../../ui/page-loading';
import styles from '../components/rounds.module.css';

type Round = PublicRounds['rounds'][number];

const roundsQuery = {
  queryKey: ['rounds'],
  queryFn: () => apiFetch('/api/rounds', publicRoundsResponse),
  refetchInterval: 60_000,
};

function statusText(round: Round): string {
  switch (round.status) {
    case 'in_review':
      return `In review · claimable from ${formatMoment(round.activeAt!)}`;
    case 'active':
      return 'Paying now';
    case 'superseded':
      return 'Paid out · later rounds include it';
    case 'cancelled':
      return 'Cancelled by a guardian · it never paid';
  }
}

function TxLink({
  explorer,
  hash,
  label,
}: {
  explorer: string | null;
  hash: string;
  label: string;
}) {
  return explorer ? (
    <a href={explorerPage(explorer, 'tx', hash)} target="_blank" rel="noreferrer">
      {label} <ExternalLink aria-label="(opens in a new tab)" size={14} />
    </a>
  ) : (
    // No explorer configured (a test chain): the hash, shortened, whole in its title.
    <span>
      {label}:{' '}
      <span className={card.mono} title={hash}>
        {shortAddress(hash)}
      </span>
    </span>
  );
}

function RoundCard({ round, explorer }: { round: Round; explorer: string | null }) {
  return (
    <li className={card.card} aria-labelledby={`round-${round.index}`}>
      <div className={styles.roundHead}>
        <h2 id={`round-${round.index}`} className={styles.roundTitle}>
          Round {round.index}
        </h2>
        <span className={`${styles.status} ${styles[round.status] ?? ''}`}>
          {statusText(round)}
        </span>
      </div>
      <dl className={styles.facts}>
        <div>
          <dt>REME in total</dt>
          <dd>{formatReme(round.total)}</dd>
        </div>
        <div>
          <dt>Members</dt>
          <dd>
            {round.members === null ? 'not known here' : round.members.toLocaleString('en-GB')}
          </dd>
        </div>
        {round.proposedAt ? (
          <div>
            <dt>Proposed</dt>
            <dd>{formatMoment(round.proposedAt)}</dd>
          </div>
        ) : null}
        {round.activeAt && round.status !== 'cancelled' ? (
          <div>
            <dt>Claimable from</dt>
            <dd>{formatMoment(round.activeAt)}</dd>
          </div>
        ) : null}
        <div>
          <dt>Root</dt>
          <dd>
            <MiddleTruncate text={round.root} className={card.mono} />
          </dd>
        </div>
      </dl>
      {!round.builtHere ? (
        <p className={styles.foreign}>
          This service did not build this round: its members and tree are not known here.
        </p>
      ) : null}
      <p className={styles.links}>
        <TxLink explorer={explorer} hash={round.proposedTx} label="Proposal transaction" />
        {round.cancelledTx ? (
          <TxLink explorer={explorer} hash={round.cancelledTx} label="Cancel transaction" />
        ) : null}
        {round.tree ? (
          <a href={round.tree} download={`round-${round.index}-tree.json`}>
            tree.json
          </a>
        ) : null}
      </p>
    </li>
  );
}

export function Component() {
  const rounds = useQuery(roundsQuery);
  if (rounds.isPending) return <PageLoading />;
  const data = rounds.data;
  return (
    <main className={card.page}>
      <header className={card.header}>
        <Link to="/">← REME Wallet</Link>
      </header>
      <h1 className={card.title}>Every distribution round</h1>
      {data ? (
        <p className={styles.intro}>
          Each round is proposed on chain
          {data.reviewHours > 0
            ? `, then waits ${data.reviewHours} hours before anyone can claim from it, so members and anyone else can check it first; a guardian can cancel a wrong round in that time`
            : ' and can be claimed from at once'}
          . Each round holds every member's total so far: a claim pays what the round adds.
        </p>
      ) : null}
      {rounds.isError ? (
        <p role="alert">The rounds could not be loaded. Please try again in a moment.</p>
      ) : null}
      {data && data.rounds.length === 0 ? <p className={card.muted}>No round yet.</p> : null}
      {data && data.rounds.length > 0 ? (
        <ul className={styles.list} aria-label="Rounds">
          {data.rounds.map((round) => (
            <RoundCard key={round.index} round={round} explorer={data.chain.explorerUrl} />
          ))}
        </ul>
      ) : null}
      {data ? (
        <section className={card.card} aria-labelledby="check-title">
          <h2 id="check-title" className={card.cardTitle}>
            Check a round yourself
          </h2>
          <p>
            From a copy of this project's code, with Node.js, this downloads a round's tree.json,
            rebuilds its root, and compares the root and the total with what the distributor{' '}
            <MiddleTruncate text={data.chain.distributorAddress} className={card.mono} /> holds on
            chain. It needs no account and no key.
          </p>
          <code className={styles.command}>
            npm run ops -- verify-round {data.rounds[0]?.index ?? 1} --url {window.location.origin}
          </code>
          <p className={card.muted}>
            It prints MISMATCH and stops with an error if anything differs.
          </p>
        </section>
      ) : null}
    </main>
  );
}
