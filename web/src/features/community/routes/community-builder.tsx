// The simpler static builder page (/community-builder).
import { goalBonusText, REFERRAL_GOAL_FRIENDS } from '@crw/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { networkQuery } from '../../../lib/referrals';
import { meQuery } from '../../../lib/session';
import { CapsGauge } from '../../../ui/caps-gauge';
import { CardSection } from '../../../ui/card-section';
import card from '../../../ui/card.module.css';
import { MiddleTruncate } from '../../../ui/middle-truncate';
import { PageLoading } from '../../../ui/page-loading';
import { ReferralLink } from '../components/referral-link';
import { ProgressBar } from '../../../ui/progress-bar';

export function Component() {
  const me = useQuery(meQuery);
  const network = useQuery(networkQuery);
  if (network.isError) {
    return (
      <main className={card.page}>
        <p role="alert">Your network could not be loaded. Please try again in a moment.</p>
        <Link to="/dashboard">← Back to dashboard</Link>
      </main>
    );
  }
  if (!me.data || !network.data) return <PageLoading />;
  const level1 = network.data.data.level_counts.level1;
  return (
    <main className={card.page}>
      <header className={card.header}>
        <Link to="/dashboard">← Back to dashboard</Link>
      </header>
      <h1 className={card.title}>{me.data.fullName || 'User'}</h1>
      <p>
        <MiddleTruncate text={me.data.wallet.address} keep={6} />
      </p>
      <CardSection titleId="static-caps" title="CAPs from referrals">
        <CapsGauge value={me.data.caps.referrals} label="CAPs from referrals" />
      </CardSection>
      <CardSection
        titleId="static-goal"
        title={
          <>
            Goal progress <span className={card.badge}>Coming Soon</span>
          </>
        }
      >
        <ProgressBar label="Goal progress" max={REFERRAL_GOAL_FRIENDS} value={level1} />
        <p className={card.muted}>
          {Math.min(level1, REFERRAL_GOAL_FRIENDS)} of {REFERRAL_GOAL_FRIENDS} friends.{' '}
          {goalBonusText()}
        </p>
      </CardSection>
      <CardSection titleId="static-link" title="Your referral link">
        {me.data.referralLink ? <ReferralLink link={me.data.referralLink} /> : null}
      </CardSection>
    </main>
  );
}
