import type { InputHTMLAttributes, ReactNode } from 'react';
import { Button } from './button';
import styles from './forms.module.css';

type AmountFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> & {
  id: string;
  label: string;
  onMax?: () => void;
  maxDisabled: boolean;
  /** Shown under the input and MAX (a hint the input may point at with aria-describedby). */
  children?: ReactNode;
};

/** A number input with MAX beside it: the convert card's amount, and the swap preview's. */
export function AmountField({
  id,
  label,
  onMax,
  maxDisabled,
  children,
  ...input
}: AmountFieldProps) {
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <div className={styles.amountRow}>
        <input id={id} className={styles.input} type="number" {...input} />
        <Button variant="secondary" onClick={onMax} disabled={maxDisabled}>
          MAX
        </Button>
      </div>
      {children}
    </div>
  );
}
