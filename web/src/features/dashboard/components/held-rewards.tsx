// The member's CAPs that do not count yet: new rewards wait a few days before they join a round,
// some wait for a community organiser's check, and a referral that broke the community's rules is
// not credited. Each line says which, and when, in plain words (docs/product.md).
import { DASHBOARD_REFRESH_MS, heldRewardsResponse, type HeldReward } from '@crw/core';
import { useQuery } from '@tanstack/react-query';
import { Clock, ShieldCheck, CircleX } from 'lucide-react';
import { apiFetch } from '../../../lib/api-client';
import { CardSection } from '../../../ui/card-section';
import card from '../../../ui/card.module.css';
import styles from './dashboard.module.css';
import { formatDay } from '../../../lib/dates';

export const heldRewardsQuery = {
  queryKey: ['held-rewards'],
  queryFn: () => apiFetch('/api/rewards/held', heldRewardsResponse),
};

/** What the credit was for, as the member knows it. */
function what(item: HeldReward): string {
  if (item.kind === 'signup') return 'for joining';
  if (item.level === 1) return 'for a friend who joined';
  return `from your network (level ${item.level})`;
}

function Line({ item }: { item: HeldReward }) {
  if (item.state === 'void')
    return (
      <li className={styles.heldLine} data-state="void">
        <CircleX aria-hidden="true" size={18} />
        <span>
          <strong>{item.caps} CAPs</strong> {what(item)} — not credited: the referral did not meet
          the community’s rules.
        </span>
      </li>
    );
  if (item.state === 'review')
    return (
      <li className={styles.heldLine} data-state="review">
        <ShieldCheck aria-hidden="true" size={18} />
        <span>
          <strong>+{item.caps} CAPs</strong> {what(item)} — on hold while a community organiser
          checks it.
        </span>
      </li>
    );
  return (
    <li className={styles.heldLine} data-state="held">
      <Clock aria-hidden="true" size={18} />
      <span>
        <strong>+{item.caps} CAPs</strong> {what(item)} — on hold until{' '}
        <time dateTime={item.releaseAt ?? undefined}>{formatDay(item.releaseAt!)}</time>
      </span>
    </li>
  );
}

/** When a held joining bonus will count, in a sentence; null when it counts already. */
export function useJoiningBonusWait(): string | null {
  const held = useQuery(heldRewardsQuery);
  const bonus = held.data?.items.find((item) => item.kind === 'signup' && item.state !== 'void');
  if (!bonus) return null;
  return bonus.state === 'review'
    ? 'They count towards your REME once a community organiser has checked them.'
    : `They count towards your REME from ${formatDay(bonus.releaseAt!)}.`;
}

/** Nothing at all when every credit counts. */
export function HeldRewards() {
  // Every new or settled credit comes with a member event (which refetches every query); the poll
  // is only the fallback while something waits, so most dashboards never ask for this again.
  const held = useQuery({
    ...heldRewardsQuery,
    refetchInterval: (query) =>
      query.state.data?.items.some((item) => item.state !== 'void') ? DASHBOARD_REFRESH_MS : false,
  });
  const items = held.data?.items ?? [];
  if (items.length === 0) return null;
  const waiting = items.filter((item) => item.state !== 'void');
  const total = waiting.reduce((sum, item) => sum + item.caps, 0);
  return (
    <CardSection
      titleId="held-title"
      title={waiting.length > 0 ? `${total} CAPs on hold` : 'Not credited'}
    >
      {waiting.length > 0 ? (
        <p className={card.muted}>
          New rewards wait a few days before they count towards your REME, so the community’s
          rewards go to real members.{' '}
          {waiting.some((item) => item.state === 'review')
            ? 'A community organiser checks some of them first. You don’t need to do anything.'
            : 'They join your balance by themselves.'}
        </p>
      ) : null}
      <ul className={card.list}>
        {items.map((item, i) => (
          <Line key={`${item.at}-${i}`} item={item} />
        ))}
      </ul>
    </CardSection>
  );
}
