// Community Builder (/rcb): the member's network, three levels deep, the friends who joined by the
// names they chose to share, and the link to grow it. Appearance and density are chosen on the
// account page, not here.
import { goalBonusText, greetingName, REFERRAL_GOAL_FRIENDS, shortAddress } from '@crw/core';
import { useQuery } from '@tanstack/react-query';
import { Check, Copy } from 'lucide-react';
import { Link } from 'react-router';
import { networkQuery } from '../../../lib/referrals';
import { meQuery } from '../../../lib/session';
import { useCopy } from '../../../lib/use-copy';
import { CardSection } from '../../../ui/card-section';
import card from '../../../ui/card.module.css';
import icon from '../../../ui/icon-button.module.css';
import { PageLoading } from '../../../ui/page-loading';
import { ProgressBar } from '../../../ui/progress-bar';
import hidden from '../../../ui/visually-hidden.module.css';
import styles from '../components/community.module.css';
import { FriendList } from '../components/friend-list';
import { NetworkGraph, NetworkLevels } from '../components/network-graph';
import { ReferralLink } from '../components/referral-link';

export function Component() {
  const me = useQuery(meQuery);
  const network = useQuery(networkQuery);
  const address = useCopy();

  if (!me.data || !network.data) {
    return network.isError ? (
      <main className={card.page}>
        <p role="alert">Your network could not be loaded. Please try again in a moment.</p>
      </main>
    ) : (
      <PageLoading />
    );
  }
  const counts = network.data.data.level_counts;
  const wallet = me.data.wallet.address;

  return (
    <main className={`${card.page} ${styles.page}`}>
      <header className={card.header}>
        <Link to="/dashboard">← Back to dashboard</Link>
      </header>
      <h1 className={card.title}>Hi {greetingName(me.data)}, grow your community</h1>
      <p className={styles.wallet}>
        <span className={card.mono} title={wallet}>
          <span aria-hidden="true">{shortAddress(wallet)}</span>
          <span className={hidden.visuallyHidden}>Your wallet {wallet}</span>
        </span>
        <button
          type="button"
          className={icon.round}
          onClick={() => void address.copy(wallet)}
          aria-label={address.copied ? 'Wallet address copied' : 'Copy wallet address'}
        >
          {address.copied ? (
            <Check aria-hidden="true" size={16} />
          ) : (
            <Copy aria-hidden="true" size={16} />
          )}
          <span aria-hidden="true">{address.copied ? 'Copied' : 'Copy'}</span>
        </button>
      </p>

      <CardSection titleId="network-title" title="Your network">
        <div className={styles.hero}>
          <p className={styles.heroFigure}>
            <span className={styles.heroValue} data-testid="network-size">
              {network.data.data.total_network_size}
            </span>
            <span className={card.muted}>
              {network.data.data.total_network_size === 1 ? 'person' : 'people'} in your network
            </span>
          </p>
          <p className={styles.earned}>
            <span data-testid="referral-caps">{me.data.caps.referrals}</span> CAPs from referrals
          </p>
        </div>
        <NetworkLevels network={network.data} />
        <NetworkGraph rootId={me.data.id} network={network.data} />
      </CardSection>

      {counts.level1 > 0 ? (
        <CardSection titleId="friends-title" title="Your friends">
          <FriendList network={network.data} />
        </CardSection>
      ) : null}

      <CardSection titleId="invite-title" title="Your referral link">
        <p className={card.muted}>
          Friends who join with it earn you 100 CAPs, their friends 50, and theirs 25.
        </p>
        {me.data.referralLink ? <ReferralLink link={me.data.referralLink} /> : null}
      </CardSection>

      <CardSection
        titleId="goal-title"
        title={
          <>
            Referral goal progress <span className={card.badge}>Coming Soon</span>
          </>
        }
      >
        <p className={card.muted}>
          Invite {REFERRAL_GOAL_FRIENDS} friends to reach your first goal. {goalBonusText()}
        </p>
        <ProgressBar
          label="Referral goal progress"
          max={REFERRAL_GOAL_FRIENDS}
          value={counts.level1}
        />
      </CardSection>
    </main>
  );
}
