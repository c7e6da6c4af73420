// Notifications on this device (web push), inside the account page's Notifications card: on or
// off for this browser, then each topic (the same as the mails': the CAPs the member earns, new
// rounds), whatever the mail choices. Plain states where it cannot work: an iPhone or iPad outside
// the app added to the home screen, a browser without push, notifications blocked (and how to
// allow them). Other devices with notifications on are named.
import type { PushSubscriptionView, PushTopic } from '@crw/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { ApiError } from '../../../lib/api-client';
import { currentSubscription, pushSupport, subscribePush } from '../../../lib/web-push';
import { SkeletonRows } from '../../../ui/skeleton';
import { notify } from '../../../ui/toaster';
import {
  pushKey,
  pushSubscriptionsQuery,
  removePushSubscription,
  savePushSubscription,
} from '../api/push';
import choices from './notifications-section.module.css';
import styles from './push-section.module.css';

const ALL_TOPICS: PushTopic[] = ['credits', 'rounds'];

/** PushSubscription.toJSON() as the server takes it (base64url without padding). */
function asRequest(subscription: PushSubscription, topics: PushTopic[]) {
  const json = subscription.toJSON();
  const unpad = (value: string | undefined) => (value ?? '').replace(/=+$/, '');
  return {
    endpoint: subscription.endpoint,
    keys: { p256dh: unpad(json.keys?.p256dh), auth: unpad(json.keys?.auth) },
    topics,
  };
}

/** Subscribes this browser and saves it; a subscription another member saved on this browser
 * (a shared device) is replaced by a new one. */
async function turnOn(topics: PushTopic[]): Promise<string> {
  const { publicKey } = await pushKey();
  let subscription = await subscribePush(publicKey);
  try {
    await savePushSubscription(asRequest(subscription, topics));
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'forbidden')) throw error;
    subscription = await subscribePush(publicKey, true);
    await savePushSubscription(asRequest(subscription, topics));
  }
  return subscription.endpoint;
}

async function turnOff(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  try {
    await removePushSubscription(subscription.endpoint);
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'not_found')) throw error;
  }
  await subscription.unsubscribe();
}

function Toggle(props: {
  id: string;
  label: string;
  checked: boolean;
  disabled: boolean;
  onChange: (on: boolean) => void;
  children: ReactNode;
}) {
  return (
    <div className={choices.row}>
      <span className={choices.text}>
        <label className={choices.label} htmlFor={props.id}>
          {props.label}
        </label>
        <span className={`${choices.hint} ${styles.block}`} id={`${props.id}-why`}>
          {props.children}
        </span>
      </span>
      <input
        className={choices.switch}
        id={props.id}
        role="switch"
        type="checkbox"
        aria-describedby={`${props.id}-why`}
        checked={props.checked}
        disabled={props.disabled}
        onChange={(event) => props.onChange(event.target.checked)}
      />
    </div>
  );
}

function otherDevices(others: PushSubscriptionView[]): string | null {
  if (others.length === 0) return null;
  const names = [...new Set(others.map((s) => s.label || 'Unknown device'))];
  return `Also on ${others.length === 1 ? 'another device' : `${others.length} other devices`}: ${names.join(', ')}.`;
}

export function PushSection() {
  const [support] = useState(pushSupport);
  const supported = support === 'supported';
  const [permission, setPermission] = useState<NotificationPermission>(() =>
    supported ? Notification.permission : 'default',
  );
  // This browser's subscription: undefined while it is read.
  const [endpoint, setEndpoint] = useState<string | null | undefined>(supported ? undefined : null);
  const client = useQueryClient();
  const saved = useQuery({
    ...pushSubscriptionsQuery,
    enabled: supported && permission !== 'denied',
  });
  useEffect(() => {
    if (!supported) return;
    let live = true;
    currentSubscription()
      .then((s) => live && setEndpoint(s?.endpoint ?? null))
      .catch(() => live && setEndpoint(null));
    return () => {
      live = false;
    };
  }, [supported]);

  const change = useMutation({
    mutationFn: async (want: { on: false } | { on: true; topics: PushTopic[] }) => {
      if (!want.on) {
        await turnOff();
        setEndpoint(null);
        return;
      }
      if (Notification.permission !== 'granted') {
        const answer = await Notification.requestPermission();
        setPermission(answer);
        if (answer !== 'granted') return;
      }
      setEndpoint(await turnOn(want.topics));
    },
    onError: (error) => notify.error(`Not saved: ${error.message}`),
    onSettled: () => client.invalidateQueries(pushSubscriptionsQuery),
  });

  const title = (
    <h3 id="push-title" className={styles.title}>
      On this device
    </h3>
  );
  const frame = (body: ReactNode) => (
    <section className={styles.section} aria-labelledby="push-title">
      {title}
      {body}
    </section>
  );

  if (support === 'needs-home-screen')
    return frame(
      <p className={choices.hint}>
        Notifications on this device need the app added to your home screen: in Safari, tap Share,
        then “Add to Home Screen”, and open the app from there.
      </p>,
    );
  if (!supported)
    return frame(
      <p className={choices.hint}>This browser cannot show notifications from the app.</p>,
    );
  if (permission === 'denied')
    return frame(
      <p className={choices.hint} role="status">
        Notifications are blocked for this app in this browser. To allow them, open the site’s
        settings (the icon beside the address, or your phone’s Settings › Notifications), allow
        notifications, then reload this page.
      </p>,
    );
  if (endpoint === undefined || saved.isPending)
    return frame(<SkeletonRows label="Loading this device’s notifications" rows={1} />);
  if (saved.isError)
    return frame(
      <p className={choices.hint} role="alert">
        This device’s notifications could not be loaded. Reload the page to try again.
      </p>,
    );

  const subscriptions = saved.data.subscriptions;
  const mine = subscriptions.find((s) => s.endpoint === endpoint);
  const topics = mine?.topics ?? [];
  const busy = change.isPending;
  const setTopic = (topic: PushTopic, on: boolean) => {
    const next = ALL_TOPICS.filter((t) => (t === topic ? on : topics.includes(t)));
    change.mutate({ on: true, topics: next });
  };
  const others = otherDevices(subscriptions.filter((s) => s.endpoint !== endpoint));
  return frame(
    <>
      <Toggle
        id="push-on"
        label="Notifications on this device"
        checked={mine !== undefined}
        disabled={busy}
        onChange={(on) => change.mutate(on ? { on, topics: ALL_TOPICS } : { on })}
      >
        The same news as the mails, on this device’s screen, even when your mails are off.
      </Toggle>
      {mine ? (
        <>
          <Toggle
            id="push-credits"
            label="The CAPs you earn"
            checked={topics.includes('credits')}
            disabled={busy}
            onChange={(on) => setTopic('credits', on)}
          >
            When a friend joins through your link or a care action is credited.
          </Toggle>
          <Toggle
            id="push-rounds"
            label="New rounds"
            checked={topics.includes('rounds')}
            disabled={busy}
            onChange={(on) => setTopic('rounds', on)}
          >
            When REME are ready for you to claim.
          </Toggle>
        </>
      ) : null}
      {others ? <p className={choices.note}>{others}</p> : null}
    </>,
  );
}
