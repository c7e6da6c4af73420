// What a member never needs day to day, out of their way: the REME contracts are
// programs, not wallets, and anything sent to them is lost, so their addresses sit folded away here,
// with no Copy button, never beside the member's own wallet.
import { useQuery } from '@tanstack/react-query';
import { ExternalLink } from 'lucide-react';
import { explorerPage } from '../lib/explorer';
import { publicConfigQuery } from '../lib/session';
import styles from './expert-details.module.css';
import { MiddleTruncate } from './middle-truncate';

export function ExpertDetails() {
  const config = useQuery(publicConfigQuery);
  if (!config.data) return null;
  const { chain, eth } = config.data;
  const contracts: Array<[string, string]> = [
    ['REME token contract', chain.tokenAddress],
    ['Rewards distributor contract', chain.distributorAddress],
  ];
  return (
    <details className={styles.details} data-testid="expert-details">
      <summary>Details for experts</summary>
      <p>
        The programs (contracts) that hold and hand out REME on the blockchain, for checking them on
        a block explorer. They are not wallets: never send anything to them.
      </p>
      <dl className={styles.list}>
        {contracts.map(([label, address]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>
              <MiddleTruncate text={address} keep={6} />
              {chain.explorerUrl ? (
                <>
                  {' '}
                  <a
                    href={explorerPage(chain.explorerUrl, 'address', address)}
                    target="_blank"
                    rel="noreferrer"
                  >
                    Explorer <ExternalLink aria-label="(opens in a new tab)" size={14} />
                  </a>
                </>
              ) : null}
            </dd>
          </div>
        ))}
        <div>
          <dt>Network</dt>
          <dd>
            Chain {chain.chainId}
            {eth.testNetwork ? ', a test network' : ''}
          </dd>
        </div>
      </dl>
    </details>
  );
}
