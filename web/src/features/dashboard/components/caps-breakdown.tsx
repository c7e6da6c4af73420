import { SIGNUP_CAPS, type CapsBreakdown as Breakdown } from '@crw/core';
import { Info } from 'lucide-react';
import { CapsGauge } from '../../../ui/caps-gauge';
import card from '../../../ui/card.module.css';
import { Tooltip } from '../../../ui/tooltip';
import styles from './dashboard.module.css';

/** The registration CAPs as the breakdown counts them (the original's tooltip said 20: docs/product.md). */
const REGISTRATION_TOOLTIP = `${SIGNUP_CAPS} CAPs on registering as a member`;

/** SPEC §2: Total CAPs Earned — registration, referrals, care actions, total — with the gauge. */
export function CapsBreakdown({ caps }: { caps: Breakdown }) {
  const rows: Array<[string, number]> = [
    ['Referrals', caps.referrals],
    ['Care actions', caps.careActions],
    ['Total', caps.total],
  ];
  return (
    <section className={card.card} aria-labelledby="caps-title">
      <h2 id="caps-title" className={card.cardTitle}>
        Total CAPs Earned
      </h2>
      <div className={styles.breakdown}>
        <dl className={card.grid}>
          <div className={card.stat}>
            <dt className={card.muted}>
              Registration{' '}
              <Tooltip text={REGISTRATION_TOOLTIP}>
                <button type="button" className={styles.infoButton} aria-label="About registration CAPs">
                  <Info aria-hidden="true" size={14} />
                </button>
              </Tooltip>
            </dt>
            <dd className={card.statValue}>{caps.registration}</dd>
          </div>
          {rows.map(([label, value]) => (
            <div key={label} className={card.stat}>
              <dt className={card.muted}>{label}</dt>
              <dd className={card.statValue}>{value}</dd>
            </div>
          ))}
        </dl>
        <CapsGauge value={caps.total} label="Total CAPs" />
      </div>
    </section>
  );
}
