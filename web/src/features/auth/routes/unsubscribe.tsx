// The page a notification mail's "Unsubscribe" link opens: it says which mails stop and asks once
// (a mail scanner that opens links must not unsubscribe anyone); no sign-in is needed. A link that
// was used already or is out of date says so and points to the account page.
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import callout from '../../../ui/callout.module.css';
import { unsubscribe } from '../api/email-links';
import { AuthCard } from '../components/auth-card';
import styles from '../components/auth.module.css';

const TOPICS = {
  credits: 'mails about the CAPs you earn',
  rounds: 'mails about new rounds and reminders to claim',
} as const;

export function Component() {
  const [params] = useSearchParams();
  const topic = params.get('t');
  const [state, setState] = useState<
    { kind: 'asking' } | { kind: 'busy' } | { kind: 'done' } | { kind: 'refused'; message: string }
  >({ kind: 'asking' });
  const known = topic === 'credits' || topic === 'rounds';
  const what = known ? TOPICS[topic] : null;

  async function stop() {
    setState({ kind: 'busy' });
    try {
      await unsubscribe(params.toString());
      setState({ kind: 'done' });
    } catch (error) {
      setState({
        kind: 'refused',
        message:
          error instanceof ApiError
            ? error.message
            : 'That did not work. Check your connection and try again.',
      });
    }
  }

  if (!what || state.kind === 'refused')
    return (
      <AuthCard title="This link does not work" subtitle="Nothing was changed.">
        <p className={callout.error} role="alert">
          {state.kind === 'refused'
            ? state.message
            : 'This unsubscribe link is not complete. Your mail choices are on your account page.'}
        </p>
        <p className={styles.center}>
          <Link to="/account">Open your account page</Link>
        </p>
      </AuthCard>
    );
  if (state.kind === 'done')
    return (
      <AuthCard title="You are unsubscribed" subtitle={`No more ${what}.`}>
        <p className={callout.success} role="status">
          Done. Security mails still come: they tell you when someone signs in to your account.
        </p>
        <p className={styles.center}>
          Changed your mind? <Link to="/account">Choose again on your account page</Link>
        </p>
      </AuthCard>
    );
  return (
    <AuthCard title="Stop these mails?" subtitle={`You will get no more ${what}.`}>
      <Button busy={state.kind === 'busy'} onClick={() => void stop()}>
        Unsubscribe
      </Button>
      <p className={styles.center}>
        You can turn them on again on your <Link to="/account">account page</Link>.
      </p>
    </AuthCard>
  );
}
