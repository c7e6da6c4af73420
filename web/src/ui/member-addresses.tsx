import { useQuery } from '@tanstack/react-query';
import { publicConfigQuery } from '../lib/session';
import { CopyAddress } from './copy-address';

/** SPEC §2 wallet addresses: the member's wallet and the REME token contract, each with copy. */
export function MemberAddresses({ wallet }: { wallet: string }) {
  const config = useQuery(publicConfigQuery);
  const explorer = config.data?.chain.explorerUrl ?? null;
  return (
    <>
      <CopyAddress label="Your wallet" address={wallet} explorerUrl={explorer} />
      {config.data ? <CopyAddress label="REME token contract" address={config.data.chain.tokenAddress} explorerUrl={explorer} /> : null}
    </>
  );
}
