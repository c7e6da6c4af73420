// Convert CAPs (/convert-caps): a preview of the care-finance hub's conversion. It says why
// fewer CAPs are available than the dashboard's total, and what the member would have after
// converting, as what would happen, not what did.
import {
  convertibleCaps,
  formatAmount,
  initialConvertAmount,
  remeBaseUnitsForCaps,
  SIGNUP_CAPS,
  type UserDetails,
} from '@crw/core';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, ExternalLink } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { meQuery, publicConfigQuery } from '../../../lib/session';
import { CardSection } from '../../../ui/card-section';
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
  const { remeHeld, remePrice } = details.tokens;
  const total = details.caps.total;
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
      <CardSection titleId="convert-addresses" title="Wallet address">
        <MemberAddresses wallet={details.wallet.address} />
      </CardSection>
      <div className={styles.cards}>
        <section className={card.stat} aria-labelledby="caps-available">
          <h2 id="caps-available">CAPs Available</h2>
          <p data-testid="caps-available">{available}</p>
          <p className={styles.explain} data-testid="caps-available-why">
            The {SIGNUP_CAPS} CAPs for registering stay with your account and cannot be converted:
            of your {total} CAPs, {available} can.
          </p>
        </section>
        <section className={card.stat} aria-labelledby="reme-held">
          <h2 id="reme-held">REME Held</h2>
          <p>{remeHeld === null ? '—' : formatAmount(remeHeld)}</p>
        </section>
      </div>
      <ConvertCard
        available={available}
        amount={amount}
        onAmountChange={setAmount}
        remePrice={remePrice}
      />
      <section aria-labelledby="if-converted">
        <h2 id="if-converted" className={styles.ifConverted}>
          If you converted {amount} CAPs (preview)
        </h2>
        <div className={styles.cards}>
          <section className={card.stat} aria-labelledby="caps-after">
            <h3 id="caps-after">CAPs you would have</h3>
            <p>{total - amount}</p>
          </section>
          <section className={card.stat} aria-labelledby="reme-after">
            <h3 id="reme-after">REME you would have</h3>
            <p>
              {remeHeld === null
                ? '—'
                : formatAmount(BigInt(remeHeld) + remeBaseUnitsForCaps(amount))}
            </p>
          </section>
        </div>
      </section>
    </main>
  );
}
