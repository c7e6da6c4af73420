import type { ReactNode } from 'react';
import card from '../../../ui/card.module.css';
import styles from './claim.module.css';

/** The centred card the claim screens sit in. */
export function ClaimCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className={styles.page}>
      <section className={card.card} aria-labelledby="claim-title">
        <h1 id="claim-title" className={card.title}>
          {title}
        </h1>
        {children}
      </section>
    </main>
  );
}
