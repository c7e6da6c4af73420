// The friends who joined through the member's own link (level 1), newest first, each by the first
// word of the name they chose to share, or their wallet shortened when they gave none; with the day
// they joined and how many joined through them (who those are stays unnamed).
import type { NetworkStats } from '@crw/core';
import { useState } from 'react';
import { formatDay } from '../../../lib/dates';
import { Button } from '../../../ui/button';
import card from '../../../ui/card.module.css';
import styles from './community.module.css';
import { friendName } from './network-graph';

/** Shown at first; the rest behind "Show all". */
const FIRST_SHOWN = 8;

export function FriendList({ network }: { network: NetworkStats }) {
  const [all, setAll] = useState(false);
  const items = network.data.hierarchy;
  const friends = items
    .filter((item) => item.level === 1)
    .sort((a, b) => b.created_at.localeCompare(a.created_at));
  const broughtBy = new Map<string, number>();
  for (const item of items)
    if (item.level === 2 && item.parent_id)
      broughtBy.set(item.parent_id, (broughtBy.get(item.parent_id) ?? 0) + 1);

  if (friends.length === 0)
    return (
      <p className={card.muted}>
        No friends yet. Share your link: each friend who joins with it earns you 100 CAPs.
      </p>
    );
  const shown = all ? friends : friends.slice(0, FIRST_SHOWN);
  return (
    <>
      <ul className={styles.friends} aria-label="Friends who joined with your link">
        {shown.map((friend) => {
          const brought = broughtBy.get(friend.referred_id) ?? 0;
          return (
            <li key={friend.referred_id} className={styles.friend}>
              <span className={styles.avatar} aria-hidden="true">
                {friend.name ? [...friend.name][0]!.toUpperCase() : ''}
              </span>
              <span className={styles.friendText}>
                <span
                  className={friend.name ? styles.friendName : `${styles.friendName} ${card.mono}`}
                >
                  {friendName(friend)}
                </span>
                <span className={styles.friendMeta}>
                  Joined {formatDay(friend.created_at)}
                  {brought > 0
                    ? ` · ${brought} ${brought === 1 ? 'friend' : 'friends'} joined through them`
                    : ''}
                </span>
              </span>
            </li>
          );
        })}
      </ul>
      {friends.length > shown.length ? (
        <Button variant="secondary" className={card.small} onClick={() => setAll(true)}>
          Show all {friends.length} friends
        </Button>
      ) : null}
    </>
  );
}
