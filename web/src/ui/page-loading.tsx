import styles from './screen-placeholder.module.css';

/** Shown while a page's code or data is on its way: never a blank page. */
export function PageLoading() {
  return (
    <main className={styles.page} aria-busy="true">
      <p className={styles.text} role="status">
        Loading…
      </p>
    </main>
  );
}
