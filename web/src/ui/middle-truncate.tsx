import type { HTMLAttributes } from 'react';
import styles from './middle-truncate.module.css';

/** A link, address or hash on one line, never broken inside: where it does not fit, its middle
 * gives way to "…" while its last `keep` characters (the part people compare) stay. The text is
 * whole in the page (screen readers, selection, copy) and in the hover title. */
export function MiddleTruncate({
  text,
  keep = 8,
  className,
  ...rest
}: { text: string; keep?: number } & HTMLAttributes<HTMLSpanElement>) {
  const cut = Math.max(0, text.length - keep);
  return (
    <span {...rest} className={[styles.token, className ?? ''].join(' ')} title={text}>
      <span className={styles.head}>{text.slice(0, cut)}</span>
      <span className={styles.tail}>{text.slice(cut)}</span>
    </span>
  );
}
