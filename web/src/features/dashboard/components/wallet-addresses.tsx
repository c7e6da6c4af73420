import * as Collapsible from '@radix-ui/react-collapsible';
import { useQuery } from '@tanstack/react-query';
import { ChevronDown } from 'lucide-react';
import { useState } from 'react';
import { publicConfigQuery } from '../../../lib/session';
import card from '../../../ui/card.module.css';
import { CopyAddress } from '../../../ui/copy-address';
import styles from './dashboard.module.css';

/** SPEC §2: the collapsible Wallet Addresses card — the member's wallet and the REME token contract. */
export function WalletAddresses({ wallet }: { wallet: string }) {
  const [open, setOpen] = useState(true);
  const config = useQuery(publicConfigQuery);
  const explorer = config.data?.chain.explorerUrl ?? null;
  return (
    <Collapsible.Root open={open} onOpenChange={setOpen} asChild>
      <section className={card.card} aria-labelledby="addresses-title">
        <h2 id="addresses-title" className={styles.collapsibleTitle}>
          <Collapsible.Trigger className={styles.collapsibleTrigger}>
            Wallet Addresses
            <ChevronDown aria-hidden="true" size={18} className={open ? styles.chevronOpen : styles.chevron} />
          </Collapsible.Trigger>
        </h2>
        <Collapsible.Content>
          <CopyAddress label="Your wallet" address={wallet} explorerUrl={explorer} />
          {config.data ? <CopyAddress label="REME token contract" address={config.data.chain.tokenAddress} explorerUrl={explorer} /> : null}
        </Collapsible.Content>
      </section>
    </Collapsible.Root>
  );
}
