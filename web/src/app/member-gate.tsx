// Member pages need a session and the local `allowed` flag (SPEC §6); otherwise: the start page.
import { useQuery } from '@tanstack/react-query';
import { Navigate, Outlet } from 'react-router';
import { useMemberEvents } from '../lib/member-events';
import { meQuery } from '../lib/session';
import { readStored } from '../lib/storage';
import { PageLoading } from '../ui/page-loading';

export function MemberGate() {
  const allowed = readStored('allowed') === 'true';
  const me = useQuery({ ...meQuery, enabled: allowed });
  useMemberEvents(Boolean(me.data));
  if (!allowed || me.isError) return <Navigate replace to="/" />;
  if (!me.data) return <PageLoading />;
  return <Outlet />;
}
