// Community Builder (/rcb): the member's network, three levels deep, and the link to grow it.
import {
  goalBonusText,
  greetingName,
  RCB_ADDRESS_DISPLAY_CHARS,
  REFERRAL_GOAL_FRIENDS,
  type Layout,
} from '@crw/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { networkQuery } from '../../../lib/referrals';
import { meQuery } from '../../../lib/session';
import { useLayout } from '../../../lib/theme';
import { useCopy } from '../../../lib/use-copy';
import { Button } from '../../../ui/button';
import { CardSection } from '../../../ui/card-section';
import card from '../../../ui/card.module.css';
import { PageLoading } from '../../../ui/page-loading';
import { Stat } from '../../../ui/stat';
import { ThemeToggle } from '../../../ui/theme-toggle';
import { ToggleGroup } from '../../../ui/toggle-group';
import styles from '../components/community.module.css';
import { NetworkGraph } from '../components/network-graph';
import { ReferralLink, useInvite } from '../components/referral-link';
import { ProgressBar } from '../../../ui/progress-bar';

const LAYOUT_OPTIONS: Array<[Layout, string]> = [
  ['modern', 'Modern'],
  ['compact', 'Compact'],
];

export function Component() {
  const me = useQuery(meQuery);
  const network = useQuery(networkQuery);
  const { layout, setLayout } = useLayout();
  const address = useCopy();
  const invite = useInvite(me.data?.referralLink ?? '');

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
  const shortAddress = me.data.wallet.address.slice(0, RCB_ADDRESS_DISPLAY_CHARS);
  const boxes: Array<[string, number]> = [
    ['You', 1],
    ['Level 1', counts.level1],
    ['Level 2', counts.level2],
    ['Level 3', counts.level3],
  ];

  return (
    <main className={layout === 'compact' ? styles.compact : card.page}>
      <header className={card.header}>
        <Link to="/dashboard">← Back to dashboard</Link>
        <div className={styles.toggles}>
          <ToggleGroup
            label="Layout"
            value={layout}
            onChange={setLayout}
            options={LAYOUT_OPTIONS}
          />
          <ThemeToggle />
        </div>
      </header>
      <h1 className={card.title}>Hi {greetingName(me.data)}, grow your community</h1>
      <p className={card.row}>
        <span className={card.mono} title={me.data.wallet.address}>
          {shortAddress}
        </span>
        <Button
          variant="secondary"
          className={card.small}
          onClick={() => void address.copy(me.data.wallet.address)}
          aria-label="Copy wallet address"
        >
          {address.copied ? 'Copied' : 'Copy'}
        </Button>
      </p>

      <CardSection titleId="network-title" title="Your Network">
        <div className={card.grid}>
          <Stat
            label="Total network size"
            value={network.data.data.total_network_size}
            testId="network-size"
          />
          <Stat label="CAPs from referrals" value={me.data.caps.referrals} testId="referral-caps" />
        </div>
        <ul className={`${card.grid} ${card.list}`} aria-label="Network by level">
          {boxes.map(([label, value]) => (
            <Stat key={label} as="li" label={label} value={value} />
          ))}
        </ul>
        {layout === 'modern' ? <NetworkGraph rootId={me.data.id} network={network.data} /> : null}
      </CardSection>

      <CardSection titleId="invite-title" title="Your referral link">
        <p className={card.muted}>
          Friends who join with it earn you 100 CAPs, their friends 50, and theirs 25.
        </p>
        {me.data.referralLink ? (
          <>
            <ReferralLink link={me.data.referralLink} />
            <p>
              <Button onClick={() => void invite.share()}>
                {invite.copied ? 'Link copied — paste it to a friend' : 'Start Inviting'}
              </Button>
            </p>
          </>
        ) : null}
      </CardSection>

      <CardSection
        titleId="goal-title"
        title={
          <>
            Referral Goal Progress <span className={card.badge}>Coming Soon</span>
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
