// A claim's transaction as a member can use it: shortened, with a link to the block explorer where
// one is configured, never a bare 66-character hash.
import { shortAddress } from '@crw/core';
import { useQuery } from '@tanstack/react-query';
import { ExternalLink } from 'lucide-react';
import { explorerPage } from '../lib/explorer';
import { publicConfigQuery } from '../lib/session';
import card from './card.module.css';

export function TransactionLink({ hash }: { hash: string }) {
  const config = useQuery(publicConfigQuery);
  const explorer = config.data?.chain.explorerUrl ?? null;
  return (
    <p className={card.muted}>
      Transaction <span title={hash}>{shortAddress(hash)}</span>
      {explorer ? (
        <>
          {' · '}
          <a href={explorerPage(explorer, 'tx', hash)} target="_blank" rel="noreferrer">
            See it on the block explorer{' '}
            <ExternalLink aria-label="(opens in a new tab)" size={14} />
          </a>
        </>
      ) : null}
    </p>
  );
}
