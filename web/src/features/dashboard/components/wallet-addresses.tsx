import * as Collapsible from '@radix-ui/react-collapsible';
import { ChevronDown } from 'lucide-react';
import { useState } from 'react';
import card from '../../../ui/card.module.css';
import { MemberAddresses } from '../../../ui/member-addresses';
import styles from './dashboard.module.css';

/** SPEC §2: the collapsible Wallet Addresses card: the member's own (the contracts are under Details for experts). */
export function WalletAddresses({ wallet }: { wallet: string }) {
  const [open, setOpen] = useState(true);
  return (
    <Collapsible.Root open={open} onOpenChange={setOpen} asChild>
      <section className={card.card} aria-labelledby="addresses-title">
        <h2 id="addresses-title" className={styles.collapsibleTitle}>
          <Collapsible.Trigger className={styles.collapsibleTrigger}>
            Wallet address
            <ChevronDown aria-hidden="true" size={18} className={open ? styles.chevronOpen : styles.chevron} />
          </Collapsible.Trigger>
        </h2>
        <Collapsible.Content>
          <MemberAddresses wallet={wallet} />
        </Collapsible.Content>
      </section>
    </Collapsible.Root>
  );
}
