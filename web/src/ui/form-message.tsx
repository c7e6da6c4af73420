import callout from './callout.module.css';
import styles from './forms.module.css';
import { ProgressBar } from './progress-bar';

/** An inline message: errors are announced at once (alert), successes politely (status). */
export function FormMessage({ error, success }: { error?: string | null; success?: string | null }) {
  if (error) return <p role="alert" className={callout.error}>{error}</p>;
  if (success) return <p role="status" className={callout.success}>{success}</p>;
  return null;
}

export function WorkProgress({ label, fraction }: { label: string; fraction: number }) {
  return (
    <div>
      <p className={styles.progressLabel}>{label}</p>
      <ProgressBar label={label} value={Math.round(fraction * 100)} />
    </div>
  );
}
