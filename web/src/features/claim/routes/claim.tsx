// The claim screen: the amount, the fee (estimated gas × gas price), the ETH balance
// (read from the chain on arrival), the password. Before the password is asked it says whether the
// wallet's ETH covers the fee; when it does not, it asks for no password, shows how much is missing
// and how to add it, and reads the balance again every few seconds, so ETH that arrives is
// seen. Complete opens the keystore in the worker, checks the proof against the chain's root,
// then sends the claim (or, should the fee have risen meanwhile, goes to the insufficient-balance
// screen). When the chain cannot be reached it says so and offers no claim.
// When the community pays the fee (sponsored claims) the wallet signs a claim request
// instead and the operator's relayer sends it; when it does not, the screen says why and the
// member pays as above.
import { errorMessages, formatReme, formatGbp, formatWithGbp } from '@crw/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { rpc, writePendingClaim } from '../../../lib/chain';
import { meQuery, publicConfigQuery } from '../../../lib/session';
import { runWalletTask } from '../../../lib/wallet/wallet-client';
import { Button } from '../../../ui/button';
import callout from '../../../ui/callout.module.css';
import { FormMessage, WorkProgress } from '../../../ui/form-message';
import { PageLoading } from '../../../ui/page-loading';
import { WalletUnlockField } from '../../../ui/wallet-unlock-field';
import { unlockProblem, useWalletUnlock } from '../../../lib/wallet/passkey-unlock';
import { claimDataQuery } from '../api/claim-data';
import { feeBalanceQuery } from '../api/fee-balance';
import { requestSponsoredClaim, sponsorshipQuery } from '../api/sponsorship';
import { CLAIM_REQUEST_LIFETIME_S } from '@crw/core';
import { failureReason, priceClaim, proofMatchesChain } from '../api/claim-transaction';
import { ClaimCard } from '../components/claim-card';
import { ClaimKit } from '../components/claim-kit';
import styles from '../components/claim.module.css';

const CLAIM_FAILED = errorMessages.claim_failed;
const UNREACHABLE =
  'The blockchain network cannot be reached right now, so claiming is not possible. Please try again shortly.';

/** How often the ETH balance is read again while it cannot pay the fee. */
const FEE_BALANCE_RECHECK_MS = 4_000;

export function Component() {
  // The original had the dashboard pass the ETH balance in the state; the screen reads it fresh itself
  // (docs/decisions/0012) and, as before, opens only from a Claim button: the dashboard's, or the
  // account page's "Claim first" before deleting (a typed or bookmarked /claim goes to the dashboard).
  const state = useLocation().state as { fromDashboard?: boolean } | null;
  if (state?.fromDashboard !== true) return <Navigate replace to="/dashboard" />;
  return <ClaimScreen />;
}

function ClaimScreen() {
  const navigate = useNavigate();
  const me = useQuery(meQuery);
  const config = useQuery(publicConfigQuery);
  const claim = useQuery(claimDataQuery);
  const sponsorship = useQuery(sponsorshipQuery);
  /** Why the member pays the fee after all (the server declined when asked), else null. */
  const [declined, setDeclined] = useState<string | null>(null);
  const address = me.data?.wallet.address;
  const distributor = config.data?.chain.distributorAddress;
  const priced = useQuery({
    queryKey: ['claim-fee', address, claim.data?.distributionIndex, claim.data?.distributedTokens],
    queryFn: () => priceClaim(distributor!, address!, claim.data!),
    enabled: Boolean(address && distributor && claim.data && claim.data.distributedTokens !== '0'),
    retry: false,
    staleTime: 15_000,
  });
  const paysOwnFee =
    !sponsorship.isPending && !(sponsorship.data?.available === true && declined === null);
  const feeBalance = useQuery({
    ...feeBalanceQuery,
    // Short of the fee: read again until the ETH arrives (the member may be sending it right now).
    refetchInterval: (query) => {
      const wei = query.state.data?.ethBalance;
      return paysOwnFee && priced.data && wei !== undefined && BigInt(wei) < priced.data.fee
        ? FEE_BALANCE_RECHECK_MS
        : false;
    },
  });
  const unlocker = useWalletUnlock(me.data?.wallet);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  if (me.isError || claim.isError || config.isError) {
    return (
      <ClaimCard title="Claim REME">
        <FormMessage
          error={`${CLAIM_FAILED} ${(me.error ?? claim.error ?? config.error)?.message ?? ''}`}
        />
        <Button variant="secondary" onClick={() => navigate('/dashboard')}>
          Back to dashboard
        </Button>
      </ClaimCard>
    );
  }
  if (feeBalance.isError && !feeBalance.data) {
    return (
      <ClaimCard title="Claim REME">
        <FormMessage error={UNREACHABLE} />
        <Button variant="secondary" onClick={() => navigate('/dashboard')}>
          Back to dashboard
        </Button>
      </ClaimCard>
    );
  }
  if (!me.data || !claim.data || !config.data || !feeBalance.data || sponsorship.isPending)
    return <PageLoading />;
  const ethBalance = BigInt(feeBalance.data.ethBalance);
  const amount = me.data.tokens.forClaiming;
  const busy = progress !== null;
  const sponsored = !paysOwnFee;
  const paysBecause =
    declined ??
    sponsorship.data?.reason ??
    (sponsorship.isError ? 'The community could not be asked to pay it right now.' : null);
  const { priceGbp, testNetwork } = config.data.eth;
  /** What the wallet lacks to pay the fee (0 when it can pay), once the fee is known. */
  const missing = priced.data
    ? priced.data.fee > ethBalance
      ? priced.data.fee - ethBalance
      : 0n
    : null;
  const askPassword = sponsored || missing === 0n;

  async function completeSponsored() {
    if (!me.data || !claim.data || !config.data) return;
    const request = {
      account: me.data.wallet.address,
      cumulativeAmount: claim.data.distributedTokens,
      round: claim.data.distributionIndex,
      deadline: Math.floor(Date.now() / 1000) + CLAIM_REQUEST_LIFETIME_S,
    };
    const signed = await runWalletTask(
      {
        kind: 'signClaimRequest',
        unlock: await unlocker.unlock(),
        chainId: config.data.chain.chainId,
        distributor: config.data.chain.distributorAddress,
        request,
      },
      setProgress,
    );
    try {
      await requestSponsoredClaim({ ...request, signature: signed.signature });
    } catch (failure) {
      if (failure instanceof ApiError && failure.code === 'sponsor_unavailable') {
        // Nothing was queued: the member can pay the fee themselves, on this screen.
        setProgress(null);
        setDeclined(failure.message);
        return;
      }
      throw failure;
    }
    navigate('/dashboard', { state: { sponsoredClaim: true } });
  }

  async function complete(event: FormEvent) {
    event.preventDefault();
    if (!me.data || !claim.data || !config.data) return;
    setError(null);
    if (sponsored) {
      setProgress(0);
      try {
        await completeSponsored();
      } catch (failure) {
        setProgress(null);
        setError(
          unlockProblem(failure) ??
            `${CLAIM_FAILED} ${failure instanceof Error ? failure.message : String(failure)}`,
        );
      }
      return;
    }
    if (!priced.data) return;
    setProgress(0);
    try {
      // The proof must lead to the root the chain holds now, before anything is signed.
      if (
        !(await proofMatchesChain(
          config.data.chain.distributorAddress,
          me.data.wallet.address,
          claim.data,
        ))
      ) {
        throw new Error('the proof does not match the published round.');
      }
      const nonce = await rpc('eth_getTransactionCount', [me.data.wallet.address, 'pending']);
      const signed = await runWalletTask(
        {
          kind: 'sign',
          unlock: await unlocker.unlock(),
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
        navigate('/insufficient-balance', {
          state: { txFee: priced.data.fee.toString(), address: signed.from },
        });
        return;
      }
      const hash = await rpc('eth_sendRawTransaction', [signed.raw]);
      writePendingClaim({ hash, amount, sentAt: Date.now() });
      navigate('/dashboard', { state: { broadcast: true } });
    } catch (failure) {
      setProgress(null);
      setError(unlockProblem(failure) ?? `${CLAIM_FAILED} ${failureReason(failure)}`);
    }
  }

  function howToAddEth() {
    if (!priced.data || !me.data) return;
    navigate('/insufficient-balance', {
      state: { txFee: priced.data.fee.toString(), address: me.data.wallet.address },
    });
  }

  return (
    <ClaimCard title={`Claim ${formatReme(amount)} REME`}>
      <p className={styles.note}>
        {!askPassword
          ? 'Your wallet signs the claim once it can pay the fee.'
          : unlocker.mode === 'passkey'
            ? 'Your passkey unlocks your wallet here, in this browser, to sign the claim.'
            : 'Your password unlocks your wallet here, in this browser, to sign the claim.'}
      </p>
      <form onSubmit={(e) => void complete(e)} className={styles.form} noValidate>
        <dl className={styles.figures}>
          <dt>Tokens to claim</dt>
          <dd>
            {formatReme(amount)} REME (≈ {formatGbp(amount, me.data.tokens.remePrice)})
          </dd>
          <dt>Transaction fee</dt>
          {sponsored ? (
            <dd>Free — your community pays the fee</dd>
          ) : (
            <dd aria-live="polite">
              {priced.data
                ? formatWithGbp(priced.data.fee, 'ETH', priceGbp, 'up')
                : priced.isError
                  ? '—'
                  : 'Estimating…'}
            </dd>
          )}
          {sponsored ? null : (
            <>
              <dt>Your ETH balance</dt>
              <dd>{formatWithGbp(ethBalance, 'ETH', priceGbp)}</dd>
            </>
          )}
        </dl>
        {sponsored ? (
          <p className={styles.note}>
            You need no ETH: your wallet signs the claim and the community sends it for you. The
            REME go straight to your wallet.
          </p>
        ) : paysBecause ? (
          <p className={styles.note} role="status">
            You pay the network fee for this claim. {paysBecause}
          </p>
        ) : null}
        {!sponsored && testNetwork ? (
          <p className={styles.note}>
            This is a test network: the fee is paid in test ETH, which is free. The £ figures are
            what real ETH would cost.
          </p>
        ) : null}
        {missing === 0n && !sponsored ? (
          <p role="status" className={callout.success} data-testid="fee-check">
            Your ETH covers the fee.
          </p>
        ) : null}
        {missing !== null && missing > 0n && !sponsored ? (
          <div role="status" className={callout.warning} data-testid="fee-check">
            <p className={styles.noteText}>
              Your wallet needs{' '}
              {formatWithGbp(missing, testNetwork ? 'test ETH' : 'ETH', priceGbp, 'up')} more to pay
              the fee. Once it arrives in your wallet, this screen sees it within a few seconds and
              asks for your password.
            </p>
            <Button variant="secondary" onClick={howToAddEth}>
              How to add ETH
            </Button>
          </div>
        ) : null}
        {!sponsored && priced.isError ? (
          <FormMessage error={`${CLAIM_FAILED} ${failureReason(priced.error)}`} />
        ) : null}
        {claim.data.distributedTokens === '0' || amount === '0' ? (
          <FormMessage error="There is nothing to claim yet." />
        ) : null}
        {askPassword ? <WalletUnlockField unlocker={unlocker} disabled={busy} /> : null}
        {busy ? (
          <WorkProgress
            label={sponsored ? 'Signing your claim…' : 'Unlocking your wallet…'}
            fraction={progress}
          />
        ) : null}
        <FormMessage error={error} />
        <div className={styles.actions}>
          {askPassword ? (
            <Button
              type="submit"
              busy={busy}
              disabled={
                (!sponsored && !priced.data) ||
                !unlocker.ready ||
                unlocker.pending ||
                amount === '0'
              }
            >
              {unlocker.mode === 'passkey' ? 'Complete with passkey' : 'Complete'}
            </Button>
          ) : null}
          <Button variant="secondary" onClick={() => navigate('/dashboard')} disabled={busy}>
            Cancel
          </Button>
        </div>
      </form>
      <ClaimKit />
    </ClaimCard>
  );
}
