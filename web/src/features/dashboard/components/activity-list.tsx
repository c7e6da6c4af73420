// The dashboard's activity: what happened to the member's rewards, one plain line each, newest first
// (docs/product.md#the-dashboard): "Bob joined through your link +100 CAPs", "Converted care CAPs →
// 9.95 REME −60 CAPs", "Payout (round 4): REME ready to claim +200.00 REME". A credit still held
// says until when.
import { formatReme, type ActivityItem } from '@crw/core';
import { useQuery } from '@tanstack/react-query';
import { formatDay } from '../../../lib/dates';
import { CardSection } from '../../../ui/card-section';
import card from '../../../ui/card.module.css';
import { SkeletonRows } from '../../../ui/skeleton';
import { activityQuery } from '../api/activity';
import styles from './dashboard.module.css';

const caps = (n: number) => `${n.toLocaleString('en-GB')} CAPs`;

/** What happened, and what it was worth, as the member reads it. */
export function activityLine(item: ActivityItem): { what: string; worth: string } {
  switch (item.kind) {
    case 'joined':
      return { what: 'You joined the community', worth: `+${caps(item.caps ?? 0)}` };
    case 'referral':
      return {
        what:
          item.level === 1
            ? `${item.friend ?? 'A friend'} joined through your link`
            : item.level === 2
              ? 'A friend of a friend joined'
              : 'Someone further along your network joined',
        worth: `+${caps(item.caps ?? 0)}`,
      };
    case 'care':
      return { what: item.description ?? 'Care action', worth: `+${caps(item.caps ?? 0)}` };
    case 'conversion':
      return {
        what: `Converted care CAPs → ${formatReme(item.reme ?? '0')} REME, paid in a payout`,
        worth: `−${caps(item.caps ?? 0)}`,
      };
    case 'payout':
      return {
        what: `Payout${item.round === null ? '' : ` (round ${item.round})`}: REME ready to claim`,
        worth: `+${formatReme(item.reme ?? '0')} REME`,
      };
    case 'claimed':
      return {
        what: 'Claimed to your wallet (free)',
        worth: `${formatReme(item.reme ?? '0')} REME`,
      };
  }
}

/** The activity's lines; those after `seenAt` (all of them when it is null and `markNew`) are
 * marked New (the notification centre). */
export function ActivityLines({
  items,
  newAfter,
  testId,
}: {
  items: ActivityItem[];
  /** Lines later than this are new; undefined: none are marked. */
  newAfter?: string | null;
  testId: string;
}) {
  const isNew = (item: ActivityItem) =>
    newAfter !== undefined && (newAfter === null || Date.parse(item.at) > Date.parse(newAfter));
  return (
    <ul className={styles.activity} data-testid={testId}>
      {items.map((item) => {
        const { what, worth } = activityLine(item);
        return (
          <li key={item.id}>
            <span className={styles.activityWhat}>
              {isNew(item) ? <span className={styles.newBadge}>New</span> : null}
              {what}
              {item.held && item.releaseAt ? (
                <span className={card.muted}> · on hold until {formatDay(item.releaseAt)}</span>
              ) : null}
            </span>
            <span className={styles.activityWorth}>{worth}</span>
            <time className={card.muted} dateTime={item.at}>
              {formatDay(item.at)}
            </time>
          </li>
        );
      })}
    </ul>
  );
}

export function ActivityList() {
  const activity = useQuery(activityQuery);
  return (
    <CardSection titleId="activity-title" title="Activity">
      {activity.data ? (
        activity.data.items.length === 0 ? (
          <p className={card.muted}>Nothing yet.</p>
        ) : (
          <ActivityLines items={activity.data.items} testId="activity" />
        )
      ) : activity.isError ? (
        <p className={card.muted}>Your activity could not be loaded. It will be tried again.</p>
      ) : (
        <SkeletonRows label="Loading your activity" rows={3} height="2.5rem" />
      )}
    </CardSection>
  );
}
