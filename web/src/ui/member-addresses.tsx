import { useQuery } from '@tanstack/react-query';
import { publicConfigQuery } from '../lib/session';
import { CopyAddress } from './copy-address';

/** SPEC §2 wallet addresses: the member's wallet, with copy. The REME contracts are not listed
 * beside it (a newcomer might send funds there): they are under Details for experts (issue 16). */
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
