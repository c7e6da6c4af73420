// Member pages need a session and the local `allowed` flag; otherwise: the start page.
// A failure to load the member's details logs them out — except a lost connection: then the
// figures as last read are shown, said to be from then, and read again when the connection is back
// (lib/offline-details.ts).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Navigate, Outlet } from 'react-router';
import { ApiError } from '../lib/api-client';
import { formatMoment } from '../lib/dates';
import { useMemberEvents } from '../lib/member-events';
import { lastDetails } from '../lib/offline-details';
import { useKeystoreCheck } from '../lib/wallet/keystore-check';
import { meQuery, useLogout } from '../lib/session';
import { readStored } from '../lib/storage';
import callout from '../ui/callout.module.css';
import { PageLoading } from '../ui/page-loading';
import { notify } from '../ui/toaster';

const isOffline = (error: unknown) => error instanceof ApiError && error.code === 'network_error';

export function MemberGate() {
  const allowed = readStored('allowed') === 'true';
  const me = useQuery({ ...meQuery, enabled: allowed });
  const queryClient = useQueryClient();
  const logout = useLogout();
  useMemberEvents(Boolean(me.data), logout);
  useKeystoreCheck();
  // When the figures on screen were read: set while the connection is lost, cleared once read again.
  const [offlineSince, setOfflineSince] = useState<string | null>(null);
  // The figures kept from the last read, parsed once each time the connection is lost.
  const connectionLost = me.isError && isOffline(me.error);
  const last = useMemo(() => (connectionLost ? lastDetails() : null), [connectionLost]);
  // A lost connection with figures to show (on screen, or kept from the last read) keeps the member
  // in; any other failure, or a lost connection with nothing to show, signs them out as before.
  const offline = connectionLost && (me.data !== undefined || last !== null);
  const failure = me.isError && !offline ? me.error.message : null;
  useEffect(() => {
    if (failure === null) return;
    notify.error(failure);
    void logout();
  }, [failure, logout]);
  // Figures from storage are set as read at time 0, so only a real read (later) clears the notice.
  const readAgain = me.isSuccess && me.dataUpdatedAt > 0;
  if (offline && offlineSince === null) {
    if (last) setOfflineSince(last.savedAt);
  } else if (!offline && readAgain && offlineSince !== null) setOfflineSince(null);
  const showLast = offline && me.data === undefined ? last : null;
  useEffect(() => {
    if (showLast) queryClient.setQueryData(meQuery.queryKey, showLast.details, { updatedAt: 0 });
  }, [showLast, queryClient]);
  if (!allowed) return <Navigate replace to="/" />;
  if (me.isError && !offline) return <Navigate replace to="/" />;
  if (!me.data) return <PageLoading />;
  return (
    <>
      {offlineSince ? (
        <p className={callout.info} role="status" data-testid="offline-notice">
          You’re offline — figures from {formatMoment(offlineSince)}. They update when you’re back
          online.
        </p>
      ) : null}
      <Outlet />
    </>
  );
}
