// The claim screen (SPEC §2, §4): the amount, the fee (estimated gas × gas price), the ETH balance
// (read from the chain on arrival), the password. Complete opens the keystore in the worker, checks
// the proof against the chain's root, then either sends the claim or goes to the
// insufficient-balance screen. When the chain cannot be reached it says so and offers no claim.
import { errorMessages, formatAmount } from '@crw/core';
import { useQuery } from '@tanstack/react-query';
import { formatEther } from 'ethers';
import { useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { rpc, writePendingClaim } from '../../../lib/chain';
import { meQuery, publicConfigQuery } from '../../../lib/session';
import { runWalletTask, WalletTaskError } from '../../../lib/wallet/wallet-client';
import { Button } from '../../../ui/button';
import { FormMessage, WorkProgress } from '../../../ui/form-message';
import { PageLoading } from '../../../ui/page-loading';
import { PasswordField } from '../../../ui/text-field';
import { claimDataQuery } from '../api/claim-data';
import { feeBalanceQuery } from '../api/fee-balance';
import { failureReason, priceClaim, proofMatchesChain } from '../api/claim-transaction';
import { ClaimCard } from '../components/claim-card';
import { ClaimKit } from '../components/claim-kit';
import styles from '../components/claim.module.css';

const CLAIM_FAILED = errorMessages.claim_failed; // SPEC §8
const UNREACHABLE = 'The blockchain network cannot be reached right now, so claiming is not possible. Please try again shortly.';

export function Component() {
  // SPEC §2 has the dashboard pass the ETH balance in the state; the screen reads it fresh itself
  // (docs/decisions/0012) and, as before, opens only from the dashboard.
  const state = useLocation().state as { fromDashboard?: boolean } | null;
  if (state?.fromDashboard !== true) return <Navigate replace to="/dashboard" />;
  return <ClaimScreen />;
}

function ClaimScreen() {
  const navigate = useNavigate();
  const me = useQuery(meQuery);
  const config = useQuery(publicConfigQuery);
  const claim = useQuery(claimDataQuery);
  const feeBalance = useQuery(feeBalanceQuery);
  const address = me.data?.wallet.address;
  const distributor = config.data?.chain.distributorAddress;
  const priced = useQuery({
    queryKey: ['claim-fee', address, claim.data?.distributionIndex, claim.data?.distributedTokens],
    queryFn: () => priceClaim(distributor!, address!, claim.data!),
    enabled: Boolean(address && distributor && claim.data && claim.data.distributedTokens !== '0'),
    retry: false,
    staleTime: 15_000,
  });
  const [password, setPassword] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  if (me.isError || claim.isError || config.isError) {
    return (
      <ClaimCard title="Confirm the transaction by entering your password">
        <FormMessage error={`${CLAIM_FAILED} ${(me.error ?? claim.error ?? config.error)?.message ?? ''}`} />
        <Button variant="secondary" onClick={() => navigate('/dashboard')}>
          Back to dashboard
        </Button>
      </ClaimCard>
    );
  }
  if (feeBalance.isError) {
    return (
      <ClaimCard title="Confirm the transaction by entering your password">
        <FormMessage error={UNREACHABLE} />
        <Button variant="secondary" onClick={() => navigate('/dashboard')}>
          Back to dashboard
        </Button>
      </ClaimCard>
    );
  }
  if (!me.data || !claim.data || !config.data || !feeBalance.data) return <PageLoading />;
  const ethBalance = BigInt(feeBalance.data.ethBalance);
  const amount = me.data.tokens.forClaiming;
  const busy = progress !== null;

  async function complete(event: FormEvent) {
    event.preventDefault();
    if (!priced.data || !me.data || !claim.data || !config.data) return;
    setError(null);
    setProgress(0);
    try {
      // The proof must lead to the root the chain holds now, before anything is signed.
      if (!(await proofMatchesChain(config.data.chain.distributorAddress, me.data.wallet.address, claim.data))) {
        throw new Error('the proof does not match the published round.');
      }
      const nonce = await rpc('eth_getTransactionCount', [me.data.wallet.address, 'pending']);
      const signed = await runWalletTask(
        {
          kind: 'sign',
          keystore: me.data.wallet.keystore,
          password,
          tx: {
            to: priced.data.to,
            data: priced.data.data,
            gasLimit: priced.data.gasLimit.toString(),
            gasPrice: priced.data.gasPrice.toString(),
            nonce: Number(nonce),
            chainId: String(config.data.chain.chainId),
          },
        },
        setProgress,
      );
      if (priced.data.fee > ethBalance) {
        navigate('/insufficient-balance', { state: { txFee: priced.data.fee.toString(), address: signed.from } });
        return;
      }
      const hash = await rpc('eth_sendRawTransaction', [signed.raw]);
      writePendingClaim({ hash, amount, sentAt: Date.now() });
      navigate('/dashboard', { state: { broadcast: true } });
    } catch (failure) {
      setProgress(null);
      if (failure instanceof WalletTaskError && failure.reason === 'invalid_password') setError('Invalid Wallet');
      else setError(`${CLAIM_FAILED} ${failureReason(failure)}`);
    }
  }

  return (
    <ClaimCard title="Confirm the transaction by entering your password">
      <form onSubmit={(e) => void complete(e)} className={styles.form} noValidate>
        <dl className={styles.figures}>
          <dt>Tokens to claim</dt>
          <dd>{formatAmount(amount)} REME</dd>
          <dt>Transaction fee</dt>
          <dd aria-live="polite">
            {priced.data ? `${formatEther(priced.data.fee)} ETH` : priced.isError ? '—' : 'Estimating…'}
          </dd>
          <dt>Your ETH balance</dt>
          <dd>{formatEther(ethBalance)} ETH</dd>
        </dl>
        {priced.isError ? <FormMessage error={`${CLAIM_FAILED} ${failureReason(priced.error)}`} /> : null}
        {claim.data.distributedTokens === '0' || amount === '0' ? <FormMessage error="There is nothing to claim yet." /> : null}
        <PasswordField label="Password" value={password} onChange={setPassword} autoComplete="current-password" required disabled={busy} />
        {busy ? <WorkProgress label="Unlocking your wallet…" fraction={progress} /> : null}
        <FormMessage error={error} />
        <div className={styles.actions}>
          <Button type="submit" busy={busy} disabled={!priced.data || !password || amount === '0'}>
            Complete
          </Button>
          <Button variant="secondary" onClick={() => navigate('/dashboard')} disabled={busy}>
            Cancel
          </Button>
        </div>
      </form>
      <ClaimKit />
    </ClaimCard>
  );
}
