// The routing rules that need no account: referral links, the first-arrival flag and
// the start page (also where a confirmation link lands).
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Navigate, Outlet, useParams, useSearchParams } from 'react-router';
import { meQuery } from '../lib/session';
import { readStored, writeStored } from '../lib/storage';
import { PageLoading } from '../ui/page-loading';

/** /r/{code} and /signup/{code} → /?ref={code} */
export function ReferralRedirect() {
  const { code = '' } = useParams();
  return <Navigate replace to={`/?ref=${encodeURIComponent(code)}`} />;
}

/** /refferal: on the first arrival set the local `refferal` flag, then go to /. */
export function ReferralFlagRedirect() {
  if (readStored('referralFlag') === null) writeStored('referralFlag', 'true');
  return <Navigate replace to="/" />;
}

/**
 * The start page sends a signed-in member (the allowed flag and a session) to /dashboard, with or
 * without a confirmation link's ?confirmed=true; anyone else gets the sign-in card (a member
 * opening / saw the sign-in form). A confirmation link that failed (`error` beside `confirmed`), or
 * that leaves no session to open (used before, or opened in another browser), stays here to be
 * explained.
 */
export function StartRedirect() {
  const [params] = useSearchParams();
  // Decided on arrival: signing in on this page sets the flag, and then the page itself moves on.
  const [signedIn] = useState(() => readStored('allowed') === 'true' && !params.has('error'));
  const me = useQuery({ ...meQuery, enabled: signedIn });
  if (!signedIn || me.isError) return <Outlet />;
  if (!me.data) return <PageLoading />;
  return <Navigate replace to="/dashboard" />;
}
