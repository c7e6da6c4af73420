// SPEC §2 Balances (REME) and the claim entry: what the member holds, what they can claim now
// (with SPEC §4's split), what is still incoming, and the way to the claim screen.
import { formatAmount, formatValue, type MemberTokens } from '@crw/core';
import { useNavigate } from 'react-router';
import { Button } from '../../../ui/button';
import card from '../../../ui/card.module.css';

export function RemeClaim({ tokens, claimPending }: { tokens: MemberTokens; claimPending: boolean }) {
  const navigate = useNavigate();
  const canClaim = tokens.forClaiming !== '0' && tokens.ethBalance !== null && !claimPending;
  return (
    <section className={card.card} aria-labelledby="reme-title">
      <h2 id="reme-title" className={card.cardTitle}>
        REME
      </h2>
      <dl className={card.grid}>
        <div className={card.stat}>
          <dt>REME held</dt>
          <dd className={card.statValue}>{tokens.remeHeld === null ? '—' : formatAmount(tokens.remeHeld)}</dd>
        </div>
        <div className={card.stat}>
          <dt>Current value</dt>
          <dd className={card.statValue}>{tokens.remeHeld === null ? '—' : `£${formatValue(tokens.remeHeld, tokens.remePrice)}`}</dd>
        </div>
        <div className={card.stat}>
          <dt>Market price</dt>
          <dd className={card.statValue}>£{tokens.remePrice}</dd>
        </div>
        <div className={card.stat}>
          <dt>Tokens to claim</dt>
          <dd className={card.statValue} data-testid="tokens-to-claim">
            {formatAmount(tokens.forClaiming)}
          </dd>
        </div>
      </dl>
      <p className={card.muted}>
        Signup claim {formatAmount(tokens.claimSplit.signup)} · Referral claim {formatAmount(tokens.claimSplit.referral)} · Incoming (next round){' '}
        {formatAmount(tokens.incoming)}
      </p>
      {tokens.remeHeld === null ? <p className={card.muted}>The blockchain cannot be reached right now; balances will return shortly.</p> : null}
      <Button disabled={!canClaim} onClick={() => navigate('/claim', { state: { ethBalance: tokens.ethBalance } })}>
        Claim {formatAmount(tokens.forClaiming)} REME
      </Button>
    </section>
  );
}
