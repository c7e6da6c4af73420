// Every route (docs/product.md, "Screens and routes"). Screens load lazily so each page downloads only its own code. The
// declarative router (useRoutes) is enough here: no loaders or actions, and it is about 17 KB
// gzipped lighter than the data router, which keeps the auth screen within its budget.
import { lazy, Suspense, type ComponentType } from 'react';
import { useRoutes, type RouteObject } from 'react-router';
import { PageLoading } from '../ui/page-loading';
import { MemberGate } from './member-gate';
import { RouteFocus } from './route-focus';
import { ReferralFlagRedirect, ReferralRedirect, StartRedirect } from './routing-rules';

/** A screen module's `Component`, fetched the first time it is shown. */
function screen(load: () => Promise<{ Component: ComponentType }>) {
  const Screen = lazy(() => load().then((module) => ({ default: module.Component })));
  return (
    <Suspense fallback={<PageLoading />}>
      <Screen />
    </Suspense>
  );
}

const authScreen = screen(() => import('../features/auth/routes/auth-screen'));

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <StartRedirect />,
    children: [{ index: true, element: authScreen }],
  },
  { path: '/signup', element: authScreen },
  { path: '/r/:code', element: <ReferralRedirect /> },
  { path: '/signup/:code', element: <ReferralRedirect /> },
  { path: '/refferal', element: <ReferralFlagRedirect /> },
  { path: '/register', element: screen(() => import('../features/auth/routes/register')) },
  {
    path: '/unsubscribe',
    element: screen(() => import('../features/auth/routes/unsubscribe')),
  },
  { path: '/mnemonic', element: screen(() => import('../features/auth/routes/mnemonic')) },
  // Every distribution round, for anyone: no account needed.
  { path: '/rounds', element: screen(() => import('../features/rounds/routes/rounds')) },
  {
    path: '/recover-wallet',
    element: screen(() => import('../features/auth/routes/recover-wallet')),
  },
  {
    path: '/reset-password',
    element: screen(() => import('../features/auth/routes/reset-password')),
  },
  {
    // These need a session and the allowed flag.
    element: <MemberGate />,
    children: [
      { path: '/claim', element: screen(() => import('../features/claim/routes/claim')) },
      {
        path: '/insufficient-balance',
        element: screen(() => import('../features/claim/routes/insufficient-balance')),
      },
      {
        path: '/dashboard',
        element: screen(() => import('../features/dashboard/routes/dashboard')),
      },
      { path: '/rcb', element: screen(() => import('../features/community/routes/rcb')) },
      {
        path: '/community-builder',
        element: screen(() => import('../features/community/routes/community-builder')),
      },
      {
        path: '/convert-caps',
        element: screen(() => import('../features/dashboard/routes/convert-caps')),
      },
      { path: '/account', element: screen(() => import('../features/account/routes/account')) },
      {
        path: '/recovery-phrase',
        element: screen(() => import('../features/account/routes/recovery-phrase')),
      },
      // The operator console: the gate asks the server first and loads the console only for an
      // operator, so a member never downloads its code.
      { path: '/operator/*', element: screen(() => import('../features/console/routes/gate')) },
    ],
  },
  { path: '*', element: screen(() => import('../features/not-found/routes/not-found')) },
];

export function AppRoutes() {
  return (
    <>
      {useRoutes(routes)}
      <RouteFocus />
    </>
  );
}
