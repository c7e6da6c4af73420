// SPEC §2 Balances: the CAPs card (with the swap button) and the REME card (held, current value =
// price × balance, market price).
import { formatAmount, formatValue, type UserDetails } from '@crw/core';
import card from '../../../ui/card.module.css';
import styles from './dashboard.module.css';
import { SwapModal } from './swap-modal';

export function Balances({ details }: { details: UserDetails }) {
  const { tokens, caps } = details;
  return (
    <section className={card.card} aria-labelledby="balances-title">
      <h2 id="balances-title" className={card.cardTitle}>
        Balances
      </h2>
      <div className={styles.balanceGrid}>
        <article className={card.stat} aria-labelledby="caps-balance-title">
          <h3 id="caps-balance-title" className={styles.balanceTitle}>
            CAPs
          </h3>
          <p className={card.statValue} data-testid="caps-balance">
            {caps.total}
          </p>
          <p className={card.muted}>Care Action Points earned in the community</p>
          <SwapModal caps={caps.total} remePrice={tokens.remePrice} />
        </article>
        <article className={card.stat} aria-labelledby="reme-balance-title">
          <h3 id="reme-balance-title" className={styles.balanceTitle}>
            REME
          </h3>
          <p className={card.statValue} data-testid="reme-balance">
            {tokens.remeHeld === null ? '—' : formatAmount(tokens.remeHeld)}
          </p>
          <dl className={card.pairs}>
            <dt>Current value</dt>
            <dd>{tokens.remeHeld === null ? '—' : `£${formatValue(tokens.remeHeld, tokens.remePrice)}`}</dd>
            <dt>Market price</dt>
            <dd>£{tokens.remePrice} per REME</dd>
          </dl>
        </article>
      </div>
    </section>
  );
}
