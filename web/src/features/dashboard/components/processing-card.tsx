// The Processing card: after a claim is broadcast, follows its receipt (kept in storage, so a
// reload keeps following it) to confirmed — balances refresh — or failed.
import { formatReme } from '@crw/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { receiptOf, writePendingClaim, type PendingClaim } from '../../../lib/chain';
import { Button } from '../../../ui/button';
import callout from '../../../ui/callout.module.css';
import card from '../../../ui/card.module.css';
import { TransactionLink } from '../../../ui/transaction-link';
import { Spinner } from '../../../ui/spinner';
import { figuresChanged } from '../api/activity';
import styles from './dashboard.module.css';

export function ProcessingCard({
  claim,
  onSettled,
  onDone,
}: {
  claim: PendingClaim;
  onSettled: () => void;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const receipt = useQuery({
    queryKey: ['receipt', claim.hash],
    queryFn: () => receiptOf(claim.hash),
    refetchInterval: (query) => (query.state.data ? false : 1_000),
    retry: true,
  });
  const status = receipt.data
    ? receipt.data.status === '0x1'
      ? 'confirmed'
      : 'failed'
    : 'processing';
  useEffect(() => {
    if (status === 'processing') return;
    writePendingClaim(null); // settled: a reload no longer shows it
    onSettled();
    if (status === 'confirmed') void figuresChanged(queryClient);
  }, [status, queryClient, onSettled]);

  return (
    <section className={card.card} aria-labelledby="processing-title" aria-live="polite">
      <h2 id="processing-title" className={`${card.cardTitle} ${styles.statusTitle}`}>
        {status === 'processing' ? <Spinner size={20} /> : null}
        {status === 'processing'
          ? 'Processing'
          : status === 'confirmed'
            ? 'Claim confirmed'
            : 'Claim failed!'}
      </h2>
      {status === 'processing' ? (
        <p role="status">
          Your claim of {formatReme(claim.amount)} REME has been sent and is waiting to be confirmed
          on the blockchain.
        </p>
      ) : status === 'confirmed' ? (
        <p role="status" className={callout.success}>
          {formatReme(claim.amount)} REME are now in your wallet.
        </p>
      ) : (
        <p role="alert" className={callout.error}>
          The claim transaction was not accepted by the blockchain. Nothing was taken from your
          tokens to claim; please try again.
        </p>
      )}
      <TransactionLink hash={claim.hash} />
      {status !== 'processing' ? (
        <Button variant="secondary" className={card.small} onClick={onDone}>
          Dismiss
        </Button>
      ) : null}
    </section>
  );
}
