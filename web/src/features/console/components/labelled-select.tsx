// A small labelled choice for a console toolbar (sort order, filter), with an optional note.
import type { SelectHTMLAttributes } from 'react';
import styles from './console.module.css';

export function LabelledSelect({
  id,
  label,
  note,
  children,
  ...rest
}: SelectHTMLAttributes<HTMLSelectElement> & { id: string; label: string; note?: string | null }) {
  return (
    <div>
      <label htmlFor={id} className={styles.sub}>
        {label}
      </label>
      <select
        id={id}
        className={styles.select}
        aria-describedby={note ? `${id}-note` : undefined}
        {...rest}
      >
        {children}
      </select>
      {note ? (
        <span id={`${id}-note`} className={styles.sub}>
          {note}
        </span>
      ) : null}
    </div>
  );
}
