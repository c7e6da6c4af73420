// The dashboard as far as it is built: greeting, logout, the first-referral notice, the CAPs
// breakdown, REME with the claim entry, the Processing card and the way to the Community Builder.
import { SIGNUP_CAPS } from '@crw/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { readPendingClaim } from '../../../lib/chain';
import { logout, meQuery } from '../../../lib/session';
import { readStored, writeStored } from '../../../lib/storage';
import { Button } from '../../../ui/button';
import callout from '../../../ui/callout.module.css';
import card from '../../../ui/card.module.css';
import { PageLoading } from '../../../ui/page-loading';
import { CapsBreakdown } from '../components/caps-breakdown';
import { ProcessingCard } from '../components/processing-card';
import { RemeClaim } from '../components/reme-claim';

export function Component() {
  const me = useQuery(meQuery);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // SPEC §4: a first-time referral arrival shows the notice once and resets the flag.
  const [notice] = useState(() => {
    if (readStored('referralFlag') !== 'true') return false;
    writeStored('referralFlag', 'false');
    return true;
  });

  const [pendingClaim, setPendingClaim] = useState(readPendingClaim);
  const [claimSettled, setClaimSettled] = useState(false);
  const onClaimSettled = useCallback(() => setClaimSettled(true), []);

  async function onLogout() {
    await logout();
    queryClient.clear();
    navigate('/', { replace: true });
  }

  if (!me.data) return <PageLoading />;
  return (
    <main className={card.page}>
      <header className={card.header}>
        <h1 className={card.title}>Hello, {me.data.fullName || 'User'}</h1>
        <Button variant="secondary" className={card.small} onClick={() => void onLogout()}>
          Logout
        </Button>
      </header>
      {notice ? (
        <p role="status" className={callout.success}>
          Congratulations you&apos;ve earned {SIGNUP_CAPS} CAPs.
        </p>
      ) : null}
      {pendingClaim ? <ProcessingCard claim={pendingClaim} onSettled={onClaimSettled} onDone={() => setPendingClaim(null)} /> : null}
      <CapsBreakdown caps={me.data.caps} />
      <RemeClaim tokens={me.data.tokens} claimPending={pendingClaim !== null && !claimSettled} />
      <section className={card.card} aria-labelledby="explore-title">
        <h2 id="explore-title" className={card.cardTitle}>
          Explore More
        </h2>
        <p>
          <Link to="/rcb">Community Builder</Link> — see your network and invite friends.
        </p>
        <p className={`${card.muted} ${card.mono}`}>Your wallet: {me.data.wallet.address}</p>
      </section>
    </main>
  );
}
