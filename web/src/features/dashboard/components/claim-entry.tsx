// The claim entry: what the member can claim now (the signup bonus first) and what is still
// incoming (next round). The Claim button is on the balance card (balance-card.tsx), whose claim
// screen reads the ETH balance itself on arrival.
import { formatReme, type MemberTokens } from '@crw/core';
import { CardSection } from '../../../ui/card-section';
import card from '../../../ui/card.module.css';
import styles from './dashboard.module.css';

export function ClaimEntry({ tokens }: { tokens: MemberTokens }) {
  return (
    <CardSection titleId="claim-title" title="Claim REME">
      <dl className={card.grid}>
        <div className={card.stat}>
          <dt>Tokens to claim</dt>
          <dd className={card.statValue} data-testid="tokens-to-claim">
            {formatReme(tokens.forClaiming)}
          </dd>
        </div>
        <div className={card.stat}>
          <dt>Signup claim</dt>
          <dd className={styles.value}>{formatReme(tokens.claimSplit.signup)}</dd>
        </div>
        <div className={card.stat}>
          <dt>Referral claim</dt>
          <dd className={styles.value}>{formatReme(tokens.claimSplit.referral)}</dd>
        </div>
        <div className={card.stat}>
          <dt>Incoming (next round)</dt>
          <dd className={styles.value}>{formatReme(tokens.incoming)}</dd>
        </div>
      </dl>
    </CardSection>
  );
}
