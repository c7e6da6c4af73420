// Every route of SPEC §2. Screens load lazily so each page downloads only its own code.
import type { RouteObject } from 'react-router';
import { PageLoading } from '../ui/page-loading';
import { MemberGate } from './member-gate';
import { ConfirmedRedirect, ReferralFlagRedirect, ReferralRedirect } from './routing-rules';

const authScreen = () => import('../features/auth/routes/auth-screen');

const screens: RouteObject[] = [
  {
    path: '/',
    element: <ConfirmedRedirect />,
    children: [{ index: true, lazy: authScreen }],
  },
  { path: '/signup', lazy: authScreen },
  { path: '/r/:code', element: <ReferralRedirect /> },
  { path: '/signup/:code', element: <ReferralRedirect /> },
  { path: '/refferal', element: <ReferralFlagRedirect /> },
  { path: '/register', lazy: () => import('../features/auth/routes/register') },
  { path: '/mnemonic', lazy: () => import('../features/auth/routes/mnemonic') },
  { path: '/recover-wallet', lazy: () => import('../features/auth/routes/recover-wallet') },
  { path: '/reset-password', lazy: () => import('../features/auth/routes/reset-password') },
  {
    // SPEC §6: these need a session and the allowed flag.
    element: <MemberGate />,
    children: [
      { path: '/claim', lazy: () => import('../features/claim/routes/claim') },
      { path: '/insufficient-balance', lazy: () => import('../features/claim/routes/insufficient-balance') },
      { path: '/dashboard', lazy: () => import('../features/dashboard/routes/dashboard') },
      { path: '/rcb', lazy: () => import('../features/community/routes/rcb') },
      { path: '/community-builder', lazy: () => import('../features/community/routes/community-builder') },
      { path: '/convert-caps', lazy: () => import('../features/convert/routes/convert-caps') },
    ],
  },
  { path: '*', lazy: () => import('../features/not-found/routes/not-found') },
];

export const routes: RouteObject[] = [{ id: 'root', HydrateFallback: PageLoading, children: screens }];
