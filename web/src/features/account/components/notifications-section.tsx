// What the member hears about, and "claim for me": mails about the CAPs they earn (each one, a
// daily or weekly digest, or none), mails about new rounds, and whether the community claims each
// round for them. Security mails cannot be turned off. Each change is saved at once (the switch
// itself shows it); a change the server refuses goes back and a toast says why.
import type { MailCreditsChoice, NotificationSettingsRequest } from '@crw/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { CardSection } from '../../../ui/card-section';
import card from '../../../ui/card.module.css';
import { SkeletonRows } from '../../../ui/skeleton';
import { notify } from '../../../ui/toaster';
import { ToggleGroup } from '../../../ui/toggle-group';
import { notificationSettingsQuery, saveNotificationSettings } from '../api/notifications';
import styles from './notifications-section.module.css';

const CREDIT_OPTIONS: Array<[MailCreditsChoice, string]> = [
  ['instant', 'Instant'],
  ['daily', 'Daily'],
  ['weekly', 'Weekly'],
  ['off', 'Off'],
];

function Switch({
  id,
  checked,
  disabled,
  onChange,
  label,
  children,
}: {
  id: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (on: boolean) => void;
  label: string;
  children: ReactNode;
}) {
  return (
    <div className={styles.row}>
      <div className={styles.text}>
        <label htmlFor={id} className={styles.label}>
          {label}
        </label>
        <p id={`${id}-hint`} className={styles.hint}>
          {children}
        </p>
      </div>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className={styles.switch}
        checked={checked}
        disabled={disabled}
        aria-describedby={`${id}-hint`}
        onChange={(event) => onChange(event.target.checked)}
      />
    </div>
  );
}

export function NotificationsSection({ children }: { children?: ReactNode }) {
  const client = useQueryClient();
  const settings = useQuery(notificationSettingsQuery);
  const save = useMutation({
    mutationFn: saveNotificationSettings,
    onMutate: async (change: NotificationSettingsRequest) => {
      await client.cancelQueries(notificationSettingsQuery);
      const before = client.getQueryData(notificationSettingsQuery.queryKey);
      if (before) client.setQueryData(notificationSettingsQuery.queryKey, { ...before, ...change });
      return { before };
    },
    onError: (error, _change, context) => {
      if (context?.before) client.setQueryData(notificationSettingsQuery.queryKey, context.before);
      notify.error(`Not saved: ${error.message}`);
    },
    onSuccess: (saved) => client.setQueryData(notificationSettingsQuery.queryKey, saved),
  });
  const s = settings.data;
  return (
    <CardSection titleId="notifications-title" title="Notifications">
      {settings.isError ? (
        <p className={card.muted} role="alert">
          Your notification choices could not be loaded. Reload the page to try again.
        </p>
      ) : !s ? (
        <SkeletonRows label="Loading your notification choices" rows={3} />
      ) : (
        <>
          <Switch
            id="claim-for-me"
            label="Claim for me each round"
            checked={s.claimForMeAvailable && s.claimForMe}
            disabled={!s.claimForMeAvailable}
            onChange={(on) => save.mutate({ claimForMe: on })}
          >
            {s.claimForMeAvailable
              ? 'When a round comes out, the community sends your claim and pays its fee: your REME arrive in your wallet without you pressing Claim.'
              : 'This community does not pay claim fees, so you claim your REME yourself.'}
          </Switch>
          <div className={styles.row}>
            <div className={styles.text}>
              <p className={styles.label} id="credit-mails-label">
                Mails about the CAPs you earn
              </p>
              <p className={styles.hint}>
                When a friend joins through your link or a care action is credited.
              </p>
            </div>
          </div>
          <ToggleGroup
            label="Mails about the CAPs you earn"
            value={s.credits}
            options={CREDIT_OPTIONS}
            onChange={(credits) => save.mutate({ credits })}
          />
          <Switch
            id="round-mails"
            label="Mails about new rounds"
            checked={s.rounds}
            onChange={(rounds) => save.mutate({ rounds })}
          >
            When REME are ready for you to claim, and a reminder if they are still waiting after 7
            and 30 days.
          </Switch>
          <p className={styles.note}>
            Security mails (a sign-in on a new device, a changed password) are always sent.
          </p>
        </>
      )}
      {children}
    </CardSection>
  );
}
