// Where the member is signed in (device, place, last seen), with sign-out of any or all others.
// This device signs out with the dashboard's Logout.
import type { MemberSession } from '@crw/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Laptop, Smartphone } from 'lucide-react';
import { useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import { CardSection } from '../../../ui/card-section';
import { FormMessage } from '../../../ui/form-message';
import { SkeletonRows } from '../../../ui/skeleton';
import { endOtherSessions, endSession, securityQuery } from '../api/settings';
import styles from './account.module.css';
import { formatMoment } from '../../../lib/dates';

/** "just now", "5 minutes ago", "3 hours ago", else the date. */
export function lastSeen(iso: string, now = Date.now()): string {
  const minutes = Math.floor((now - new Date(iso).getTime()) / 60_000);
  if (minutes < 2) return 'active now';
  if (minutes < 60) return `last seen ${minutes} minutes ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `last seen ${hours} hour${hours === 1 ? '' : 's'} ago`;
  return `last seen ${formatMoment(iso)}`;
}

const isPhone = (device: string) => /iOS|Android/.test(device);

function SessionRow({
  session,
  onEnd,
  busy,
}: {
  session: MemberSession;
  onEnd: () => void;
  busy: boolean;
}) {
  const Icon = isPhone(session.device) ? Smartphone : Laptop;
  return (
    <li className={styles.session}>
      <div>
        <span className={styles.sessionName}>
          <Icon aria-hidden="true" size={18} />
          {session.device}
          {session.current ? <span className={styles.statusOn}>This device</span> : null}
        </span>
        <p className={styles.sessionMeta}>
          Signed in {formatMoment(session.signedInAt)}
          {session.ipAddress ? ` from ${session.ipAddress}` : ''} ·{' '}
          {session.current ? 'active now' : lastSeen(session.lastSeenAt)}
        </p>
      </div>
      {session.current ? null : (
        <Button
          variant="secondary"
          className={styles.action}
          busy={busy}
          onClick={onEnd}
          aria-label={`Sign out ${session.device}, signed in ${formatMoment(session.signedInAt)}`}
        >
          Sign out
        </Button>
      )}
    </li>
  );
}

export function SessionsSection() {
  const queryClient = useQueryClient();
  const security = useQuery(securityQuery);
  const [working, setWorking] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);

  async function run(key: string, work: () => Promise<{ signedOut: number }>) {
    setWorking(key);
    setError(null);
    setSuccess(null);
    try {
      const { signedOut } = await work();
      setSuccess(
        signedOut === 1
          ? 'Signed out of 1 other place.'
          : `Signed out of ${signedOut} other places.`,
      );
    } catch (e) {
      setError(
        e instanceof ApiError && e.status !== 404
          ? e.message
          : 'That place was already signed out.',
      );
    } finally {
      setWorking(null);
      await queryClient.invalidateQueries({ queryKey: securityQuery.queryKey });
    }
  }

  const sessions = security.data?.sessions ?? [];
  const others = sessions.filter((s) => !s.current).length;
  return (
    <CardSection titleId="sessions-title" title="Where you're signed in">
      <p className={styles.lead}>
        If you see a place you don&apos;t recognise, sign it out and change your password.
      </p>
      {security.isPending ? <SkeletonRows label="Loading your sessions…" /> : null}
      {security.isError ? (
        <FormMessage error="Your sessions could not be loaded. Please reload the page." />
      ) : null}
      <ul className={styles.sessions} aria-label="Your sessions">
        {sessions.map((session) => (
          <SessionRow
            key={session.id}
            session={session}
            busy={working === session.id}
            onEnd={() => void run(session.id, () => endSession(session.id))}
          />
        ))}
      </ul>
      <FormMessage error={error} success={success} />
      {others > 0 ? (
        <div className={styles.actions}>
          <Button
            variant="secondary"
            className={styles.action}
            busy={working === 'others'}
            onClick={() => void run('others', endOtherSessions)}
          >
            Sign out everywhere else
          </Button>
        </div>
      ) : null}
    </CardSection>
  );
}
