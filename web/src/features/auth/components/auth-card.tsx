import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { publicConfigQuery } from '../../../lib/session';
import { BrandMark } from '../../../ui/brand-mark';
import styles from './auth.module.css';

/** The card every account screen sits in: the brand at its head, then the screen, then the help,
 * main-site and terms links. */
export function AuthCard({
  title,
  subtitle,
  wide,
  footer = true,
  children,
}: {
  title: string;
  subtitle: string;
  wide?: boolean;
  footer?: boolean;
  children: ReactNode;
}) {
  const config = useQuery(publicConfigQuery);
  const links = config.data?.links;
  return (
    <main className={styles.page}>
      <section className={`${styles.card} ${wide ? styles.wide : ''}`} aria-labelledby="auth-title">
        <p className={styles.brand}>
          <BrandMark size={32} />
          REME Wallet
        </p>
        <h1 id="auth-title" className={styles.title}>
          {title}
        </h1>
        <p className={styles.subtitle}>{subtitle}</p>
        {children}
        {links && footer ? (
          <nav className={styles.footer} aria-label="More">
            <a href={links.help} target="_blank" rel="noreferrer">
              Need help?
            </a>
            <a href={links.mainSite} target="_blank" rel="noreferrer">
              Main site
            </a>
            <a href={links.terms} target="_blank" rel="noreferrer">
              Terms
            </a>
          </nav>
        ) : null}
      </section>
    </main>
  );
}
