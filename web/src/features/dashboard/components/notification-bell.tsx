// The notification centre: a bell in the header with how many things happened since the member
// last opened it (a credit, a friend who joined, a conversion, a payout, a claim); opening it lists
// them, newest first, those not seen before marked New, and marks them seen. Live: a change
// announced on the member's event stream reads the activity again (api/activity.ts).
import * as Dialog from '@radix-ui/react-dialog';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Bell } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../ui/button';
import card from '../../../ui/card.module.css';
import { DialogFrame } from '../../../ui/dialog-frame';
import { activityQuery } from '../api/activity';
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

  function onOpenChange(next: boolean) {
    setOpen(next);
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
          {activity.data && activity.data.items.length > 0 ? (
            <ActivityLines items={activity.data.items} newAfter={newAfter} testId="notifications" />
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
