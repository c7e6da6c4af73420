// One step of an account-page change (two-factor, passkeys): its fields, its problem, then submit
// and Cancel (which waits while the step is at work).
import type { FormEvent, ReactNode } from 'react';
import { Button } from '../../../ui/button';
import { FormMessage } from '../../../ui/form-message';
import styles from './account.module.css';

export function StepForm({
  onSubmit,
  error,
  submitLabel,
  busy,
  onCancel,
  children,
}: {
  onSubmit: (event: FormEvent) => void;
  error: string | null;
  submitLabel: string;
  busy: boolean;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <form onSubmit={onSubmit} noValidate className={styles.form}>
      {children}
      <FormMessage error={error} />
      <div className={styles.actions}>
        <Button type="submit" busy={busy} className={styles.action}>
          {submitLabel}
        </Button>
        <Button variant="secondary" className={styles.action} onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
