// Convert CAPs (/convert-caps): the member's care CAPs, converted into REME paid in the next payout
// (docs/product.md#caps-and-reme). What can be converted and why, the form, and the conversions made.
import { formatReme, type PublicConfig, type UserDetails } from '@crw/core';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, ExternalLink } from 'lucide-react';
import { Link } from 'react-router';
import { meQuery, publicConfigQuery } from '../../../lib/session';
import { CardSection } from '../../../ui/card-section';
import card from '../../../ui/card.module.css';
import { MemberAddresses } from '../../../ui/member-addresses';
import { PageLoading } from '../../../ui/page-loading';
import { conversionsQuery } from '../api/conversions';
import { conversionLine, ConversionRule, ConvertForm } from '../components/convert-form';
import styles from '../components/convert.module.css';
import { formatDay } from '../../../lib/dates';

export function Component() {
  const me = useQuery(meQuery);
  const config = useQuery(publicConfigQuery);
  return me.data && config.data ? (
    <ConvertPage details={me.data} config={config.data} />
  ) : (
    <PageLoading />
  );
}

function ConvertPage({ details, config }: { details: UserDetails; config: PublicConfig }) {
  const { remeHeld, remePrice } = details.tokens;
  const { caps } = details;
  return (
    <main className={card.page}>
      <header className={card.header}>
        <Link to="/dashboard" className={card.row}>
          <ArrowLeft aria-hidden="true" size={18} /> Back to your wallet
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
          <li>
            <a href={config.links.market} target="_blank" rel="noreferrer">
              Market <ExternalLink aria-label="(opens in a new tab)" size={14} />
            </a>
          </li>
        </ul>
      </nav>
      <h1 className={card.title}>Convert CAPs</h1>
      <ConversionRule setting={config.conversion} />
      <div className={styles.cards}>
        <section className={card.stat} aria-labelledby="caps-available">
          <h2 id="caps-available">Care CAPs to convert</h2>
          <p data-testid="caps-available">{caps.convertible.toLocaleString('en-GB')}</p>
          <p className={styles.explain} data-testid="caps-available-why">
            Of your {caps.total.toLocaleString('en-GB')} CAPs,{' '}
            {caps.careActions.toLocaleString('en-GB')} were earned for care
            {caps.converted > 0
              ? ` and ${caps.converted.toLocaleString('en-GB')} of those are converted`
              : ''}
            . The {(caps.registration + caps.referrals).toLocaleString('en-GB')} for joining and
            inviting are paid as REME on their own.
          </p>
        </section>
        <section className={card.stat} aria-labelledby="reme-coming">
          <h2 id="reme-coming">REME in your next payout</h2>
          <p data-testid="reme-incoming">{formatReme(details.tokens.incoming)}</p>
          <p className={styles.explain}>
            In your wallet now: {remeHeld === null ? '—' : formatReme(remeHeld)} REME
          </p>
        </section>
      </div>
      <CardSection titleId="convert-title" title="Convert care CAPs to REME">
        <ConvertForm caps={caps} setting={config.conversion} remePrice={remePrice} withSlider />
      </CardSection>
      <Conversions />
      <CardSection titleId="convert-addresses" title="Wallet address">
        <MemberAddresses wallet={details.wallet.address} />
      </CardSection>
    </main>
  );
}

function Conversions() {
  const conversions = useQuery(conversionsQuery);
  const items = conversions.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <CardSection titleId="conversions-title" title="Your conversions">
      <ul className={styles.history} data-testid="conversions">
        {items.map((c) => (
          <li key={c.convertedAt + c.caps}>
            <span>{conversionLine(c)}</span>
            <time className={card.muted} dateTime={c.convertedAt}>
              {formatDay(c.convertedAt)}
            </time>
          </li>
        ))}
      </ul>
    </CardSection>
  );
}
