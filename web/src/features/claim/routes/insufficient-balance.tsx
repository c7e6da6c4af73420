// The fee is more than the wallet's ETH; explain how to get ETH to the shown address. On a
// test network the ETH is free test ETH: point to a faucet (or the community's organisers), never
// "Buy ETH".
import { formatWithGbp } from '@crw/core';
import { useQuery } from '@tanstack/react-query';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { publicConfigQuery } from '../../../lib/session';
import { useCopy } from '../../../lib/use-copy';
import { Button } from '../../../ui/button';
import { PageLoading } from '../../../ui/page-loading';
import { MiddleTruncate } from '../../../ui/middle-truncate';
import { ClaimCard } from '../components/claim-card';
import styles from '../components/claim.module.css';

const open = (url: string) => window.open(url, '_blank', 'noopener,noreferrer');

export function Component() {
  const state = useLocation().state as { txFee?: string; address?: string } | null;
  const navigate = useNavigate();
  const config = useQuery(publicConfigQuery);
  const { copied, copy } = useCopy();
  if (!state?.txFee || !state.address) return <Navigate replace to="/dashboard" />;
  if (!config.data) return <PageLoading />;
  const { address } = state;
  const { eth, chain } = config.data;
  const faucet = eth.faucetUrl;
  const fee = formatWithGbp(
    BigInt(state.txFee),
    eth.testNetwork ? 'test ETH' : 'ETH',
    eth.priceGbp,
    'up',
  );
  return (
    <ClaimCard title="ETH balance insufficient">
      <p>
        Sending the claim costs a network fee of about <strong>{fee}</strong>, which is more than
        your wallet holds.
      </p>
      {eth.testNetwork ? (
        <p>
          This is a test network, so the ETH you need is test ETH, which is free.{' '}
          {faucet
            ? 'Get some from a faucet and have it sent to your wallet address below, then claim again.'
            : "Ask your community's organisers to send some to your wallet address below, then claim again."}
        </p>
      ) : (
        <p>Buy ETH and send it to your wallet address below, then claim again.</p>
      )}
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
        {eth.testNetwork ? (
          faucet ? (
            <Button onClick={() => open(faucet)}>Get free test ETH</Button>
          ) : null
        ) : (
          <Button onClick={() => open(chain.exchangeUrl)}>Learn how to do that</Button>
        )}
      </div>
    </ClaimCard>
  );
}
