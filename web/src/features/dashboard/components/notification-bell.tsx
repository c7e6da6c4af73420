// The notification centre: a bell in the header with how many things happened since the member
// last opened it (a credit, a friend who joined, a conversion, a payout, a claim); opening it lists
// them, newest first, those not seen before marked New, and marks them seen; Show older reads the
// next page (30 lines at a time). Live: a change announced on the member's event stream reads the
// activity again (api/activity.ts).
import * as Dialog from '@radix-ui/react-dialog';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Bell } from 'lucide-react';
import { useState } from 'react';
import type { ActivityItem } from '@crw/core';
import { Button } from '../../../ui/button';
import card from '../../../ui/card.module.css';
import { DialogFrame } from '../../../ui/dialog-frame';
import { ACTIVITY_PAGE, activityQuery, olderActivity } from '../api/activity';
import { markActivitySeen } from '../api/notifications';
import { ActivityLines } from './activity-list';
import styles from './dashboard.module.css';

export function NotificationBell() {
  const activity = useQuery(activityQuery);
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  // What was unseen when the centre opened stays marked New while it is open.
  const [newAfter, setNewAfter] = useState<string | null | undefined>(undefined);
  const unread = activity.data?.unread ?? 0;
  // Older pages read while the centre is open, and whether there are more still.
  const [older, setOlder] = useState<{ items: ActivityItem[]; more: boolean } | null>(null);
  const [reading, setReading] = useState<'idle' | 'busy' | 'failed'>('idle');
  const first = activity.data?.items ?? [];
  const lines = older ? [...first, ...older.items] : first;
  const more = older ? older.more : first.length >= ACTIVITY_PAGE;

  async function showOlder() {
    const last = lines.at(-1);
    if (!last) return;
    setReading('busy');
    try {
      const page = await olderActivity(last);
      setOlder({ items: [...(older?.items ?? []), ...page.items], more: page.more });
      setReading('idle');
    } catch {
      setReading('failed');
    }
  }

  function onOpenChange(next: boolean) {
    setOpen(next);
    setOlder(null);
    setReading('idle');
    const data = activity.data;
    if (!next || !data) return;
    setNewAfter(data.seenAt);
    const newest = data.items[0];
    if (newest && data.unread > 0)
      void markActivitySeen(newest.at)
        .then(() => queryClient.invalidateQueries({ queryKey: activityQuery.queryKey }))
        .catch(() => undefined); // unseen stays unseen; the next opening tries again
  }

  const label = unread > 0 ? `Notifications, ${unread} new` : 'Notifications';
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger asChild>
        <Button
          variant="secondary"
          className={`${card.small} ${styles.bell}`}
          aria-label={label}
          title="Notifications"
        >
          <Bell aria-hidden="true" size={16} />
          {unread > 0 ? (
            <span className={styles.bellCount} aria-hidden="true" data-testid="bell-count">
              {unread >= 30 ? '30+' : unread}
            </span>
          ) : null}
        </Button>
      </Dialog.Trigger>
      <DialogFrame
        title="Notifications"
        description={<p className={card.muted}>What happened to your rewards, newest first.</p>}
      >
        <div className={styles.notifications}>
          {lines.length > 0 ? (
            <>
              <ActivityLines items={lines} newAfter={newAfter} testId="notifications" />
              {reading === 'failed' ? (
                <p className={card.muted} role="alert">
                  Older notifications could not be loaded. Check your connection and try again.
                </p>
              ) : null}
              {more ? (
                <Button
                  variant="secondary"
                  className={card.small}
                  busy={reading === 'busy'}
                  onClick={() => void showOlder()}
                >
                  Show older
                </Button>
              ) : null}
            </>
          ) : (
            <p className={card.muted}>
              Nothing yet. Credits, friends who join and payouts show here.
            </p>
          )}
        </div>
      </DialogFrame>
    </Dialog.Root>
  );
}
