// The wallet dashboard (SPEC §2): header, greeting, wallet addresses, the CAPs breakdown, balances
// with the swap modal, the claim entry, the Processing card and Explore More.
import { useCallback, useState } from 'react';
import { readPendingClaim } from '../../../lib/chain';
import { readStored, writeStored } from '../../../lib/storage';
import callout from '../../../ui/callout.module.css';
import card from '../../../ui/card.module.css';
import { PageLoading } from '../../../ui/page-loading';
import { Balances } from '../components/balances';
import { CapsBreakdown } from '../components/caps-breakdown';
import { ClaimEntry } from '../components/claim-entry';
import { DashboardHeader } from '../components/dashboard-header';
import { ExploreMore } from '../components/explore-more';
import { FiguresNote } from '../components/figures-note';
import { ProcessingCard } from '../components/processing-card';
import { SponsoredClaimCard, useSponsoredClaim } from '../components/sponsored-claim-card';
import { WalletAddresses } from '../components/wallet-addresses';
import { useDashboardDetails } from '../hooks/use-dashboard-details';

export function Component() {
  const me = useDashboardDetails();
  // SPEC §4: a first-time referral arrival shows the notice once and resets the flag.
  const [notice] = useState(() => {
    if (readStored('referralFlag') !== 'true') return false;
    writeStored('referralFlag', 'false');
    return true;
  });
  const [pendingClaim, setPendingClaim] = useState(readPendingClaim);
  const [claimSettled, setClaimSettled] = useState(false);
  const onClaimSettled = useCallback(() => setClaimSettled(true), []);
  const [sponsoredClaim, dismissSponsoredClaim] = useSponsoredClaim();

  if (!me.data) return <PageLoading />;
  const details = me.data;
  return (
    <main className={card.page}>
      <DashboardHeader />
      <h1 className={card.title}>Hello, {details.fullName || 'User'}</h1>
      <p className={card.muted}>Your rewards wallet</p>
      {notice ? (
        // SPEC §9: the notice says 20 CAPs while the breakdown counts 200; both readings are the SPEC's.
        <p role="status" className={callout.success}>
          Congratulations you&apos;ve earned 20 CAPs.
        </p>
      ) : null}
      {pendingClaim ? <ProcessingCard claim={pendingClaim} onSettled={onClaimSettled} onDone={() => setPendingClaim(null)} /> : null}
      {sponsoredClaim ? <SponsoredClaimCard claim={sponsoredClaim} onDismiss={dismissSponsoredClaim} /> : null}
      <WalletAddresses wallet={details.wallet.address} />
      <CapsBreakdown caps={details.caps} />
      <FiguresNote asOf={details.tokens.asOf} />
      <Balances details={details} />
      <ClaimEntry
        tokens={details.tokens}
        claimPending={(pendingClaim !== null && !claimSettled) || sponsoredClaim?.status === 'queued' || sponsoredClaim?.status === 'sent'}
      />
      <ExploreMore />
    </main>
  );
}
