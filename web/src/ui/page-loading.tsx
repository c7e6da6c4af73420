import card from './card.module.css';
import { Skeleton } from './skeleton';
import styles from './skeleton.module.css';
import hidden from './visually-hidden.module.css';

/** Shown while a page's code or data is on its way: the shape of a page, never a blank one. */
export function PageLoading() {
  return (
    <main className={card.page} aria-busy="true">
      <p className={hidden.visuallyHidden} role="status">
        Loading…
      </p>
      <div className={styles.headerRow}>
        <Skeleton width="8rem" height="1.25rem" />
        <Skeleton width="10rem" height="2.5rem" />
      </div>
      <div className={styles.stack}>
        <Skeleton width="min(20rem, 70%)" height="2rem" />
        <Skeleton width="min(12rem, 45%)" />
      </div>
      {[0, 1].map((i) => (
        <div key={i} className={`${card.card} ${styles.stack}`}>
          <Skeleton width="40%" height="1.25rem" />
          <Skeleton height="3.5rem" />
          <Skeleton width="70%" />
        </div>
      ))}
    </main>
  );
}
