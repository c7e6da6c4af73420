// The dashboard's main card: what the member holds first — REME with its £ value, CAPs
// beneath — then the wallet it sits in and the three things to do with it: claim, invite, swap.
// A figure that goes up while the page is open says so ("+100 CAPs"), once, with a glow.
import { formatAmount, formatGbp, formatReme, type UserDetails } from '@crw/core';
import { Gift, UserPlus } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { formatMoment } from '../../../lib/dates';
import { useRise } from '../../../lib/use-rise';
import { Button } from '../../../ui/button';
import forms from '../../../ui/forms.module.css';
import { MemberAddresses } from '../../../ui/member-addresses';
import hidden from '../../../ui/visually-hidden.module.css';
import styles from './balance-card.module.css';
import { ConvertDialog } from './convert-dialog';
import { RoundReview } from './round-review';

/** REME held as a number of whole tokens, for noticing a rise (display goes through formatAmount). */
const remeNumber = (baseUnits: string | null) =>
  baseUnits === null ? null : Number(formatAmount(baseUnits));

/** A round in review that pays the member more (docs/decisions/0027): when they can claim it. */
function reviewLine(review: NonNullable<UserDetails['tokens']['inReview']>): string {
  return `Round ${review.round}: ${formatReme(review.adds)} REME for you, claimable from ${formatMoment(review.claimableFrom)}. Each round waits a while before it pays, so anyone can check it first.`;
}

export function BalanceCard({
  details,
  claimPending,
}: {
  details: UserDetails;
  claimPending: boolean;
}) {
  const navigate = useNavigate();
  const { tokens, caps, wallet } = details;
  const remeRise = useRise(remeNumber(tokens.remeHeld));
  const capsRise = useRise(caps.total);
  // Nothing to claim: no Claim button (a disabled one read as the main thing to do), but what comes next.
  const hasClaim = tokens.forClaiming !== '0';
  // Shown only when the round pays the member more than the active one.
  const review = tokens.inReview && tokens.inReview.adds !== '0' ? tokens.inReview : undefined;
  const canClaim = hasClaim && !claimPending;
  return (
    <section className={styles.card} aria-labelledby="balance-title">
      <MemberAddresses wallet={wallet.address} />
      <h2 id="balance-title" className={styles.label}>
        Your REME
      </h2>
      <p className={styles.amount}>
        <span
          key={remeRise.key}
          className={remeRise.key ? styles.risen : undefined}
          data-testid="reme-balance"
        >
          {tokens.remeHeld === null ? '—' : formatReme(tokens.remeHeld)}
        </span>{' '}
        <span className={styles.unit}>REME</span>
        {remeRise.key ? (
          <span key={`r${remeRise.key}`} className={styles.riseChip} role="status">
            +{remeRise.rise.toLocaleString('en-GB', { maximumFractionDigits: 4 })} REME arrived
          </span>
        ) : null}
      </p>
      <p className={styles.value}>
        {tokens.remeHeld === null
          ? 'Balance unavailable right now'
          : `≈ ${formatGbp(tokens.remeHeld, tokens.remePrice)}`}
        <span className={styles.dot} aria-hidden="true">
          ·
        </span>
        <span>£{tokens.remePrice} per REME</span>
      </p>
      <div className={styles.caps}>
        <span className={styles.capsFigure}>
          <strong
            key={capsRise.key}
            className={capsRise.key ? styles.risen : undefined}
            data-testid="caps-balance"
          >
            {caps.total}
          </strong>{' '}
          CAPs
        </span>
        <span className={styles.capsText}>Care Action Points earned in the community</span>
        {capsRise.key ? (
          <span key={`c${capsRise.key}`} className={styles.riseChip} role="status">
            +{capsRise.rise} CAPs credited
          </span>
        ) : null}
      </div>
      <div className={styles.actions}>
        {hasClaim ? (
          <Button
            disabled={!canClaim}
            onClick={() => navigate('/claim', { state: { fromDashboard: true } })}
          >
            <Gift aria-hidden="true" size={18} />
            Claim {formatReme(tokens.forClaiming)} REME
          </Button>
        ) : (
          <p className={styles.nextStep} data-testid="next-step">
            {review ? (
              // One run of text: the line is a flex row, whose items would split it.
              <span>
                {reviewLine(review)} <Link to="/rounds">See the round</Link>
              </span>
            ) : BigInt(tokens.incoming) > 0n ? (
              `Your ${formatReme(tokens.incoming)} REME are paid in the next payout. They will show here, ready to claim.`
            ) : (
              `Nothing ${tokens.remeHeld !== null && tokens.remeHeld !== '0' ? 'more ' : ''}to claim for now. Invite friends, or take part in care actions, to earn more.`
            )}
          </p>
        )}
        <Link to="/rcb" className={[forms.button, forms.secondary].join(' ')}>
          <UserPlus aria-hidden="true" size={18} />
          <span>
            Invite<span className={hidden.narrowHidden}> friends</span>
          </span>
        </Link>
        <ConvertDialog caps={caps} remePrice={tokens.remePrice} className="" />
      </div>
      {hasClaim && review ? (
        <p className={styles.nextStep} data-testid="round-in-review">
          <span>
            {reviewLine(review)} <Link to="/rounds">See the round</Link>
          </span>
        </p>
      ) : null}
      {review ? <RoundReview review={review} tokens={tokens} /> : null}
    </section>
  );
}
