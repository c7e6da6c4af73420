// The Processing card of a sponsored claim: the server's record of it, followed live
// (the event stream refetches it when the relayer moves it on; a slow poll backs that up) from
// queued to sent to confirmed, or failed with the reason and a way to try again. It is the
// server's record, so a reload or another device shows the same card.
import { formatReme, type SponsoredClaim } from '@crw/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../ui/button';
import callout from '../../../ui/callout.module.css';
import card from '../../../ui/card.module.css';
import { TransactionLink } from '../../../ui/transaction-link';
import { Spinner } from '../../../ui/spinner';
import { sponsorshipQuery } from '../../claim/api/sponsorship';
import { figuresChanged } from '../api/activity';
import styles from './dashboard.module.css';

const DISMISSED_KEY = 'crw-dismissed-sponsored-claim';

const STEPS: Array<{ status: SponsoredClaim['status']; label: string }> = [
  { status: 'queued', label: 'Queued' },
  { status: 'sent', label: 'Sent to the network' },
  { status: 'confirmed', label: 'In your wallet' },
];

function dismissedId(): number | null {
  try {
    return Number(localStorage.getItem(DISMISSED_KEY) ?? NaN) || null;
  } catch {
    return null;
  }
}

/** The member's latest sponsored claim unless they dismissed it, and the way to dismiss it. */
export function useSponsoredClaim(): [SponsoredClaim | null, (id: number) => void] {
  const sponsorship = useQuery({
    ...sponsorshipQuery,
    refetchInterval: (query) =>
      query.state.data?.latest && ['queued', 'sent'].includes(query.state.data.latest.status)
        ? 3_000
        : false,
  });
  const [dismissed, setDismissed] = useState(dismissedId);
  useEffect(() => {
    const onStorage = () => setDismissed(dismissedId());
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);
  const latest = sponsorship.data?.latest ?? null;
  const dismiss = (id: number) => {
    try {
      localStorage.setItem(DISMISSED_KEY, String(id));
    } catch {
      // storage disabled: dismissed for this page only
    }
    setDismissed(id);
  };
  return [latest && latest.id !== dismissed ? latest : null, dismiss];
}

export function SponsoredClaimCard({
  claim,
  onDismiss,
}: {
  claim: SponsoredClaim;
  onDismiss: (id: number) => void;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const done = claim.status === 'confirmed' || claim.status === 'failed';
  useEffect(() => {
    if (claim.status === 'confirmed') void figuresChanged(queryClient);
  }, [claim.status, queryClient]);
  const dismiss = () => onDismiss(claim.id);
  const reached = STEPS.findIndex((s) => s.status === claim.status);
  return (
    <section
      className={card.card}
      aria-labelledby="processing-title"
      aria-live="polite"
      data-testid="sponsored-claim"
    >
      <h2 id="processing-title" className={`${card.cardTitle} ${styles.statusTitle}`}>
        {done ? null : <Spinner size={20} />}
        {claim.status === 'confirmed'
          ? claim.forMe
            ? 'Claimed for you'
            : 'Claim confirmed'
          : claim.status === 'failed'
            ? 'Claim failed!'
            : claim.forMe
              ? 'Claiming for you'
              : 'Processing'}
      </h2>
      {claim.status === 'failed' ? (
        <p role="alert" className={callout.error}>
          {claim.reason ?? 'The claim could not be sent.'} Nothing was taken from your tokens to
          claim.
        </p>
      ) : claim.status === 'confirmed' ? (
        <p role="status" className={callout.success}>
          {claim.forMe
            ? `${formatReme(claim.amount)} REME are in your wallet. Your community sent the claim for you and paid the network fee.`
            : `${formatReme(claim.amount)} REME are now in your wallet. The network fee was paid by your community.`}
        </p>
      ) : claim.forMe ? (
        <p role="status">
          Your community is claiming {formatReme(claim.amount)} REME for you and pays the network
          fee. Nothing to do: they arrive in your wallet by themselves.
        </p>
      ) : (
        <p role="status">
          Your claim of {formatReme(claim.amount)} REME is on its way; your community pays the
          network fee. You can close this page: it carries on.
        </p>
      )}
      {claim.status !== 'failed' ? (
        <ol className={styles.steps} aria-label="Progress">
          {STEPS.map((step, i) => (
            <li
              key={step.status}
              data-done={i <= reached ? 'true' : 'false'}
              aria-current={i === reached ? 'step' : undefined}
            >
              {step.label}
            </li>
          ))}
        </ol>
      ) : null}
      {claim.txHash ? <TransactionLink hash={claim.txHash} /> : null}
      {done ? (
        <p className={styles.actionRow}>
          {claim.status === 'failed' ? (
            <Button onClick={() => navigate('/claim', { state: { fromDashboard: true } })}>
              Try again
            </Button>
          ) : null}
          <Button variant="secondary" className={card.small} onClick={dismiss}>
            Dismiss
          </Button>
        </p>
      ) : null}
    </section>
  );
}
