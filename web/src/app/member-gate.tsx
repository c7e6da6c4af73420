// Member pages need a session and the local `allowed` flag; otherwise: the start page.
// A failure to load the member's details logs them out.
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Navigate, Outlet } from 'react-router';
import { useMemberEvents } from '../lib/member-events';
import { useKeystoreCheck } from '../lib/wallet/keystore-check';
import { meQuery, useLogout } from '../lib/session';
import { readStored } from '../lib/storage';
import { PageLoading } from '../ui/page-loading';
import { notify } from '../ui/toaster';

export function MemberGate() {
  const allowed = readStored('allowed') === 'true';
  const me = useQuery({ ...meQuery, enabled: allowed });
  const logout = useLogout();
  useMemberEvents(Boolean(me.data), logout);
  useKeystoreCheck();
  const failure = me.isError ? me.error.message : null;
  useEffect(() => {
    if (failure === null) return;
    notify.error(failure);
    void logout();
  }, [failure, logout]);
  if (!allowed || me.isError) return <Navigate replace to="/" />;
  if (!me.data) return <PageLoading />;
  return <Outlet />;
}
