// SPEC §2: the fee is more than the wallet's ETH; explain how to get ETH to the shown address.
import { useQuery } from '@tanstack/react-query';
import { formatEther } from 'ethers';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { publicConfigQuery } from '../../../lib/session';
import { useCopy } from '../../../lib/use-copy';
import { Button } from '../../../ui/button';
import { MiddleTruncate } from '../../../ui/middle-truncate';
import { ClaimCard } from '../components/claim-card';
import styles from '../components/claim.module.css';

export function Component() {
  const state = useLocation().state as { txFee?: string; address?: string } | null;
  const navigate = useNavigate();
  const config = useQuery(publicConfigQuery);
  const { copied, copy } = useCopy();
  if (!state?.txFee || !state.address) return <Navigate replace to="/dashboard" />;
  const { address } = state;
  return (
    <ClaimCard title="ETH balance insufficient">
      <p>
        Sending the claim costs a network fee of <strong>{formatEther(BigInt(state.txFee))} ETH</strong>, which is more than your wallet holds. Buy ETH
        and send it to your wallet address below, then claim again.
      </p>
      <p aria-label="Your wallet address">
        <MiddleTruncate text={address} keep={6} />
      </p>
      <div className={styles.actions}>
        <Button variant="secondary" onClick={() => void copy(address)}>
          {copied ? 'Copied' : 'Copy address'}
        </Button>
        <Button variant="secondary" onClick={() => navigate('/dashboard')}>
          Go back
        </Button>
        <Button onClick={() => window.open(config.data?.chain.exchangeUrl, '_blank', 'noopener,noreferrer')} disabled={!config.data}>
          Learn how to do that
        </Button>
      </div>
    </ClaimCard>
  );
}
