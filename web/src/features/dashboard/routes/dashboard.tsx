// The wallet dashboard, in one hierarchy: the header with the brand, the
// greeting, the balance card (REME and its £ value, CAPs, the wallet, Claim, Invite and Swap), a
// claim on its way, then what the claim is made of, how the CAPs were earned and Explore More; the
// contracts last, folded away under Details for experts.
import { greetingName, SIGNUP_CAPS } from '@crw/core';
import { useCallback, useState } from 'react';
import { readPendingClaim } from '../../../lib/chain';
import { readStored, writeStored } from '../../../lib/storage';
import callout from '../../../ui/callout.module.css';
import card from '../../../ui/card.module.css';
import { ExpertDetails } from '../../../ui/expert-details';
import { PageLoading } from '../../../ui/page-loading';
import { ActivityList } from '../components/activity-list';
import { BackupTask } from '../components/backup-task';
import { BalanceCard } from '../components/balance-card';
import { CapsBreakdown } from '../components/caps-breakdown';
import { ClaimEntry } from '../components/claim-entry';
import { DashboardHeader } from '../components/dashboard-header';
import { ExploreMore } from '../components/explore-more';
import { FiguresNote } from '../components/figures-note';
import { HeldRewards, useJoiningBonusWait } from '../components/held-rewards';
import { InstallCard } from '../components/install-card';
import { PasskeyOffer } from '../components/passkey-offer';
import { ProcessingCard } from '../components/processing-card';
import { SponsoredClaimCard, useSponsoredClaim } from '../components/sponsored-claim-card';
import { useDashboardDetails } from '../hooks/use-dashboard-details';

export function Component() {
  const me = useDashboardDetails();
  // A first-time referral arrival shows the notice once and resets the flag; the details
  // were asked with the flag, and the server says whether the member did join through a referral.
  const [flagged] = useState(() => {
    if (readStored('referralFlag') !== 'true') return false;
    writeStored('referralFlag', 'false');
    return true;
  });
  // Decided by the first answer (asked with the flag), not by later refreshes (asked without it).
  const [notice, setNotice] = useState<boolean | null>(flagged ? null : false);
  if (notice === null && me.data) setNotice(me.data.firstTimeReferral);
  const [pendingClaim, setPendingClaim] = useState(readPendingClaim);
  const [claimSettled, setClaimSettled] = useState(false);
  const onClaimSettled = useCallback(() => setClaimSettled(true), []);
  const [sponsoredClaim, dismissSponsoredClaim] = useSponsoredClaim();

  if (!me.data) return <PageLoading />;
  const details = me.data;
  return (
    <main className={card.page}>
      <DashboardHeader />
      <h1 className={card.title}>Hello, {greetingName(details)}</h1>
      <p className={card.muted}>Your rewards wallet</p>
      {notice ? <WelcomeNotice /> : null}
      <BalanceCard
        details={details}
        claimPending={
          (pendingClaim !== null && !claimSettled) ||
          sponsoredClaim?.status === 'queued' ||
          sponsoredClaim?.status === 'sent'
        }
      />
      {details.wallet.phraseSaved ? null : <BackupTask />}
      <PasskeyOffer />
      <InstallCard claimed={details.tokens.claimed !== null && details.tokens.claimed !== '0'} />
      <FiguresNote asOf={details.tokens.asOf} />
      <HeldRewards />
      {pendingClaim ? (
        <ProcessingCard
          claim={pendingClaim}
          onSettled={onClaimSettled}
          onDone={() => setPendingClaim(null)}
        />
      ) : null}
      {sponsoredClaim ? (
        <SponsoredClaimCard claim={sponsoredClaim} onDismiss={dismissSponsoredClaim} />
      ) : null}
      {/* What a claim is made of, when there is one or one is coming: never four rows of zeros. */}
      {details.tokens.forClaiming !== '0' || details.tokens.incoming !== '0' ? (
        <ClaimEntry tokens={details.tokens} />
      ) : null}
      <ActivityList />
      <CapsBreakdown caps={details.caps} />
      <ExploreMore />
      <ExpertDetails />
    </main>
  );
}

/** The registration CAPs as the breakdown counts them (the original said 20: docs/product.md), and
 * when they count if they are still held. */
function WelcomeNotice() {
  const wait = useJoiningBonusWait();
  return (
    <p role="status" className={callout.success}>
      Congratulations you&apos;ve earned {SIGNUP_CAPS} CAPs.{wait ? ` ${wait}` : ''}
    </p>
  );
}
