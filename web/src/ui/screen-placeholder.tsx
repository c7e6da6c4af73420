import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import styles from './screen-placeholder.module.css';

/** A plain page that names a screen not built yet; it pretends nothing works. */
export function ScreenPlaceholder({ name, children }: { name: string; children?: ReactNode }) {
  const atStart = useLocation().pathname === '/';
  return (
    <main className={styles.page}>
      <section className={styles.card} aria-labelledby="screen-title">
        <h1 id="screen-title" className={styles.title}>
          {name}
        </h1>
        <p className={styles.text}>This screen is not available yet.</p>
        {children ? <div className={styles.detail}>{children}</div> : null}
        {atStart ? null : (
          <Link className={styles.link} to="/">
            Go to the start page
          </Link>
        )}
      </section>
    </main>
  );
}
