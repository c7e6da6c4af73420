import styles from './skeleton.module.css';
import hidden from './visually-hidden.module.css';

/** A placeholder shape for content on its way; hidden from screen readers (the page says it is loading). */
export function Skeleton({ width = '100%', height = '1rem' }: { width?: string; height?: string }) {
  return (
    <span className={styles.bone} style={{ width, height }} aria-hidden="true" data-skeleton="" />
  );
}

/** Placeholder rows where a list is loading, announced by their label. */
export function SkeletonRows({
  label,
  rows = 2,
  height = '3rem',
}: {
  label: string;
  rows?: number;
  height?: string;
}) {
  return (
    <div className={styles.stack} role="status">
      <span className={hidden.visuallyHidden}>{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} height={height} />
      ))}
    </div>
  );
}
