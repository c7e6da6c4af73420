import { Link } from 'react-router';
import styles from '../../../ui/screen-placeholder.module.css';

export function Component() {
  return (
    <main className={styles.page}>
      <section className={styles.card} aria-labelledby="not-found-title">
        <h1 id="not-found-title" className={styles.title}>
          Page not found
        </h1>
        <p className={styles.text}>
          There is no page at this address. Check the link, or start again from the beginning.
        </p>
        <Link className={styles.link} to="/">
          Go to the start page
        </Link>
      </section>
    </main>
  );
}
