// The dashboard's activity: what happened to the member's rewards and to their account, one plain
// line each, newest first (docs/product.md#the-dashboard): "Bob joined through your link +100 CAPs",
// "Converted care CAPs → 9.95 REME −60 CAPs", "Payout (round 4): REME ready to claim +200.00 REME",
// "Claimed for you: 200.00 REME are in your wallet", and, behind a shield, "New sign-in on Chrome
// on Android" or "Password changed". A credit still held says until when.
import { formatReme, type ActivityItem, type SecurityEventKind } from '@crw/core';
import { useQuery } from '@tanstack/react-query';
import { ShieldAlert, ShieldCheck } from 'lucide-react';
import { formatDay } from '../../../lib/dates';
import { CardSection } from '../../../ui/card-section';
import card from '../../../ui/card.module.css';
import { SkeletonRows } from '../../../ui/skeleton';
import { activityQuery } from '../api/activity';
import styles from './dashboard.module.css';
import own from './activity-list.module.css';

const caps = (n: number) => `${n.toLocaleString('en-GB')} CAPs`;

/** A security event in plain words (the mail says more: when, where, what to do). */
export function securityWords(
  event: SecurityEventKind | null | undefined,
  device: string | null | undefined,
): string {
  const on = device ?? 'a new device';
  switch (event) {
    case 'new_device':
      return `New sign-in on ${on}`;
    case 'password_changed':
      return 'Password changed';
    case 'two_factor_on':
      return 'Two-factor sign-in turned on';
    case 'two_factor_off':
      return 'Two-factor sign-in turned off';
    case 'export':
      return 'Your data was downloaded';
    case 'deletion_requested':
      return 'Account deletion requested';
    case 'passkey_added':
      return `Passkey added on ${on}`;
    default:
      return 'A change to your account’s security';
  }
}

/** Events that weaken the account or show a stranger may be in: a warning shield; others a check. */
const WARNING_EVENTS = new Set<SecurityEventKind | null | undefined>([
  'new_device',
  'two_factor_off',
  'deletion_requested',
]);

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
      return item.forYou
        ? {
            what: `Claimed for you: ${formatReme(item.reme ?? '0')} REME are in your wallet`,
            worth: '',
          }
        : {
            what: 'Claimed to your wallet (free)',
            worth: `${formatReme(item.reme ?? '0')} REME`,
          };
    case 'claim_failed':
      return {
        what: `A claim of ${formatReme(item.reme ?? '0')} REME could not be sent${
          item.description ? `: ${item.description}` : ''
        }`,
        worth: '',
      };
    case 'security':
      return { what: securityWords(item.securityEvent, item.device), worth: '' };
  }
}

function SecurityIcon({ event }: { event: SecurityEventKind | null | undefined }) {
  const Icon = WARNING_EVENTS.has(event) ? ShieldAlert : ShieldCheck;
  return <Icon className={own.securityIcon} size={16} aria-hidden="true" focusable="false" />;
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
              {item.kind === 'security' ? <SecurityIcon event={item.securityEvent} /> : null}
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
