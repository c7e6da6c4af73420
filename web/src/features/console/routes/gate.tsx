// /operator: opens the console only for an operator whose session passed two-factor sign-in. The
// console's own code is fetched after the server said yes, so a member never downloads it.
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import card from '../../../ui/card.module.css';
import { PageLoading } from '../../../ui/page-loading';
import { consoleMeQuery } from '../api/console';

const Console = lazy(() => import('./console'));

export function Component() {
  const me = useQuery(consoleMeQuery);
  if (me.data)
    return (
      <Suspense fallback={<PageLoading />}>
        <Console me={me.data} />
      </Suspense>
    );
  if (!me.isError) return <PageLoading />;
  const code = me.error instanceof ApiError ? me.error.code : '';
  return (
    <main className={card.page}>
      <h1 className={card.title}>Operator console</h1>
      <p role="alert" className={card.muted}>
        {me.error.message}
      </p>
      <p>
        {code === 'two_factor_required' ? (
          <Link to="/account">Set up two-factor sign-in on your account page</Link>
        ) : (
          <Link to="/dashboard">Back to your wallet</Link>
        )}
      </p>
    </main>
  );
}
