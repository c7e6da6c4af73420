import styles from './spinner.module.css';

/** A turning ring: work is under way (the text beside it says which). */
export function Spinner({ size = 16 }: { size?: number }) {
  return (
    <span
      className={styles.spinner}
      style={{ width: size, height: size }}
      aria-hidden="true"
      data-spinner=""
    />
  );
}
