import type { ButtonHTMLAttributes } from 'react';
import styles from './forms.module.css';
import { Spinner } from './spinner';

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  busy?: boolean;
  variant?: 'primary' | 'secondary';
}

/** A button that shows a loader and is disabled while its work runs. */
export function Button({
  busy = false,
  variant = 'primary',
  children,
  disabled,
  className,
  ...rest
}: ButtonProps) {
  return (
    <button
      type="button"
      {...rest}
      className={[
        styles.button,
        variant === 'secondary' ? styles.secondary : '',
        className ?? '',
      ].join(' ')}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
    >
      {busy ? <Spinner /> : null}
      {children}
    </button>
  );
}

export function LinkButton(props: ButtonHTMLAttributes<HTMLButtonElement>) {
  return <button type="button" {...props} className={styles.linkButton} />;
}
