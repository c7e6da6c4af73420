// The console's overview: the community's figures at once, from GET /api/console/overview
// (computed by the server at most once a minute), and their last 30 days as charts. The charts and
// their library load only here, in a chunk of their own, while the figures are already on screen.
import { formatTokens } from '@crw/core';
import { consoleOverviewResponse, type ConsoleOverview } from '@crw/core/console';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { apiFetch } from '../../../lib/api-client';
import card from '../../../ui/card.module.css';
import { FormMessage } from '../../../ui/form-message';
import { SkeletonRows } from '../../../ui/skeleton';
import styles from './overview-charts.module.css';

const OverviewCharts = lazy(() => import('./overview-charts'));

const overviewQuery = queryOptions({
  queryKey: ['console', 'overview'],
  queryFn: () => apiFetch('/api/console/overview', consoleOverviewResponse),
  // The server's figures change at most once a minute.
  staleTime: 30_000,
  refetchInterval: 60_000,
});

const whole = (n: number) => n.toLocaleString('en-GB');
const compact = new Intl.NumberFormat('en-GB', { notation: 'compact', maximumFractionDigits: 1 });
/** An amount in a figure's tile: ten million or more in short form (1bn REME), so it fits. */
const tokens = (amount: string | null, unit: string) => {
  if (amount === null) return '—';
  const whole = BigInt(amount) / 10n ** 18n;
  return whole >= 10_000_000n
    ? `${compact.format(Number(whole))} ${unit}`
    : `${formatTokens(amount)} ${unit}`;
};
const percent = (part: bigint, of: bigint) =>
  of === 0n ? '0%' : `${(Number((part * 10_000n) / of) / 100).toLocaleString('en-GB')}%`;
const time = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

function Figure({ label, value, note }: { label: string; value: string; note: string }) {
  return (
    <li className={styles.figure}>
      <span className={styles.label}>{label}</span>
      <span className={styles.value}>{value}</span>
      <span className={styles.note}>{note}</span>
    </li>
  );
}

function Figures({ overview }: { overview: ConsoleOverview }) {
  const { totals, balances, days } = overview;
  const joined = days.reduce((n, d) => n + d.joined, 0);
  const distributed = BigInt(totals.remeDistributed);
  const claimed = BigInt(totals.remeClaimed);
  const unanswered = 'The chain did not answer';
  return (
    <ul className={styles.figures} aria-label="Figures">
      <Figure
        label="Members"
        value={whole(totals.members)}
        note={`${whole(joined)} joined in ${days.length} days`}
      />
      <Figure
        label="Confirmed"
        value={whole(totals.confirmed)}
        note={`${percent(BigInt(totals.confirmed), BigInt(totals.members))} of members`}
      />
      <Figure
        label="CAPs issued"
        value={whole(totals.capsIssued.total)}
        note={`Registration ${whole(totals.capsIssued.signup)} · Referrals ${whole(totals.capsIssued.referral)} · Care ${whole(totals.capsIssued.careAction)}`}
      />
      <Figure
        label="REME distributed"
        value={tokens(totals.remeDistributed, 'REME')}
        note={totals.latestRound === null ? 'No round yet' : `Round ${totals.latestRound}`}
      />
      <Figure
        label="REME claimed"
        value={tokens(totals.remeClaimed, 'REME')}
        note={`${percent(claimed, distributed)} of what was distributed`}
      />
      <Figure
        label="Treasury"
        value={tokens(balances.treasuryReme, 'REME')}
        note={
          balances.treasuryReme === null && balances.treasuryEth === null
            ? unanswered
            : tokens(balances.treasuryEth, 'ETH')
        }
      />
      <Figure
        label="Distributor"
        value={tokens(balances.distributorReme, 'REME')}
        note={balances.distributorReme === null ? unanswered : 'Left to claim'}
      />
      <Figure
        label="Relayer"
        value={balances.relayerAddress === null ? 'Off' : tokens(balances.relayerEth, 'ETH')}
        note={
          balances.relayerAddress === null
            ? 'Sponsored claims are off'
            : balances.relayerEth === null
              ? unanswered
              : 'Pays sponsored claims'
        }
      />
    </ul>
  );
}

export function OverviewScreen() {
  const overview = useQuery(overviewQuery);
  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title" className={card.title}>
        Overview
      </h1>
      {overview.data ? (
        <>
          <p className={card.muted}>
            Figures as of {time.format(new Date(overview.data.asOf))}; days are UTC. They refresh
            every minute.
          </p>
          <Figures overview={overview.data} />
          <Suspense fallback={<SkeletonRows label="Loading the charts…" rows={2} height="240px" />}>
            <OverviewCharts overview={overview.data} />
          </Suspense>
        </>
      ) : overview.isError ? (
        <FormMessage error={overview.error.message} />
      ) : (
        <SkeletonRows label="Loading the figures…" rows={3} height="5rem" />
      )}
    </section>
  );
}
