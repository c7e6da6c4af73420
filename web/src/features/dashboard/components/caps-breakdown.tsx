import type { CapsBreakdown as Breakdown } from '@crw/core';
import { CapsGauge } from '../../../ui/caps-gauge';
import card from '../../../ui/card.module.css';

/** SPEC §2: Total CAPs Earned — registration, referrals, care actions, total — with the gauge. */
export function CapsBreakdown({ caps }: { caps: Breakdown }) {
  const rows: Array<[string, number]> = [
    ['Registration', caps.registration],
    ['Referrals', caps.referrals],
    ['Care actions', caps.careActions],
  ];
  return (
    <section className={card.card} aria-labelledby="caps-title">
      <h2 id="caps-title" className={card.cardTitle}>
        Total CAPs Earned
      </h2>
      <div className={card.row} style={{ justifyContent: 'space-between', alignItems: 'center' }}>
        <dl className={card.grid} style={{ flex: '1 1 280px', margin: 0 }}>
          {rows.map(([label, value]) => (
            <div key={label} className={card.stat}>
              <dt className={card.muted}>{label}</dt>
              <dd style={{ margin: 0 }} className={card.statValue}>
                {value}
              </dd>
            </div>
          ))}
          <div className={card.stat}>
            <dt className={card.muted}>Total</dt>
            <dd style={{ margin: 0 }} className={card.statValue}>
              {caps.total}
            </dd>
          </div>
        </dl>
        <CapsGauge value={caps.total} label="Total CAPs" />
      </div>
    </section>
  );
}
