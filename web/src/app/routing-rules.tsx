// The routing rules that need no account (SPEC §2): referral links, the first-arrival flag and
// the landing after e-mail confirmation.
import { Navigate, Outlet, useParams, useSearchParams } from 'react-router';
import { readStored, writeStored } from '../lib/storage';

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

/** ?confirmed=true on the site root sends the member to /dashboard. */
export function ConfirmedRedirect() {
  const [params] = useSearchParams();
  return params.get('confirmed') === 'true' ? <Navigate replace to="/dashboard" /> : <Outlet />;
}
