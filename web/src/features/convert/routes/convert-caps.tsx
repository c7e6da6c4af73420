// Convert CAPs (SPEC §2 /convert-caps): a preview of the care-finance hub's conversion.
import { convertibleCaps, formatAmount, initialConvertAmount, remeForCaps, type UserDetails } from '@crw/core';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, ExternalLink } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { meQuery, publicConfigQuery } from '../../../lib/session';
import card from '../../../ui/card.module.css';
import { MemberAddresses } from '../../../ui/member-addresses';
import { PageLoading } from '../../../ui/page-loading';
import { ConvertCard } from '../components/convert-card';
import styles from '../components/convert.module.css';

export function Component() {
  const me = useQuery(meQuery);
  return me.data ? <ConvertPage details={me.data} /> : <PageLoading />;
}

function ConvertPage({ details }: { details: UserDetails }) {
  const config = useQuery(publicConfigQuery);
  const available = convertibleCaps(details.caps.total);
  const [amount, setAmount] = useState(() => initialConvertAmount(available));
  const held = details.tokens.remeHeld === null ? null : formatAmount(details.tokens.remeHeld);
  return (
    <main className={card.page}>
      <header className={card.header}>
        <Link to="/dashboard" className={card.row}>
          <ArrowLeft aria-hidden="true" size={18} /> Back to Wallet
        </Link>
      </header>
      <nav aria-label="Sections" className={styles.nav}>
        <ul>
          <li>
            <Link to="/dashboard">Wallet</Link>
          </li>
          <li>
            <Link to="/rcb">Community</Link>
          </li>
          <li>
            <Link to="/convert-caps" aria-current="page">
              Care Finance Hub
            </Link>
          </li>
          {config.data ? (
            <li>
              <a href={config.data.links.market} target="_blank" rel="noreferrer">
                Market <ExternalLink aria-label="(opens in a new tab)" size={14} />
              </a>
            </li>
          ) : null}
        </ul>
      </nav>
      <h1 className={card.title}>Convert CAPs</h1>
      <section className={card.card} aria-labelledby="convert-addresses">
        <h2 id="convert-addresses" className={card.cardTitle}>
          Wallet Addresses
        </h2>
        <MemberAddresses wallet={details.wallet.address} />
      </section>
      <div className={styles.cards}>
        <section className={card.stat} aria-labelledby="caps-available">
          <h2 id="caps-available">CAPs Available</h2>
          <p data-testid="caps-available">{available}</p>
        </section>
        <section className={card.stat} aria-labelledby="reme-held">
          <h2 id="reme-held">REME Held</h2>
          <p>{held ?? '—'}</p>
        </section>
      </div>
      <ConvertCard available={available} amount={amount} onAmountChange={setAmount} />
      <div className={styles.cards}>
        <section className={card.stat} aria-labelledby="unconverted">
          <h2 id="unconverted">Unconverted CAPs</h2>
          <p>{available - amount}</p>
        </section>
        <section className={card.stat} aria-labelledby="total-remes">
          <h2 id="total-remes">Total REMEs</h2>
          <p>{(Number(held ?? 0) + Number(remeForCaps(amount))).toFixed(4)}</p>
        </section>
      </div>
    </main>
  );
}
