import { useState } from 'react';
import callout from './callout.module.css';
import styles from './forms.module.css';
import { ProgressBar } from './progress-bar';

/** An inline message: errors are announced at once (alert), successes politely (status). */
export function FormMessage({
  error,
  success,
}: {
  error?: string | null;
  success?: string | null;
}) {
  if (error)
    return (
      <p role="alert" className={callout.error}>
        {error}
      </p>
    );
  if (success)
    return (
      <p role="status" className={callout.success}>
        {success}
      </p>
    );
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

/** A form's one problem: a field's (shown under that field, which is marked) or the whole form's. */
export interface FormError<Field extends string> {
  field?: Field | undefined;
  message: string;
}

export function useFormError<Field extends string>(initial: FormError<Field> | null = null) {
  const [problem, setProblem] = useState(initial);
  return {
    setProblem,
    /** The message for one field, or null. */
    fieldError: (field: Field) => (problem?.field === field ? problem.message : null),
    /** The message that belongs to no field, for the box above the button. */
    formError: problem && !problem.field ? problem.message : null,
  };
}
