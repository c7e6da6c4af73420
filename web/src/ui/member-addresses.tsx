import { useQuery } from '@tanstack/react-query';
import { publicConfigQuery } from '../lib/session';
import { CopyAddress } from './copy-address';

/** The wallet addresses: the member's wallet, with copy. The REME contracts are not listed
 * beside it (a newcomer might send funds there): they are under Details for experts. */
export function MemberAddresses({ wallet }: { wallet: string }) {
  const config = useQuery(publicConfigQuery);
  return (
    <CopyAddress
      label="Your wallet"
      address={wallet}
      explorerUrl={config.data?.chain.explorerUrl ?? null}
    />
  );
}
