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

/** A form of text fields and its one problem. `field(name)` is what a field needs (its value, its
 * setter, its error), so each field reads `<TextField label="Email" {...field('email')} />`. */
export function useForm<Values extends Record<string, string>>(
  initial: Values,
  initialProblem: FormError<keyof Values & string> | null = null,
) {
  type Field = keyof Values & string;
  const [values, setValues] = useState(initial);
  const [problem, setProblem] = useState(initialProblem);
  const set = (name: Field) => (value: string) => setValues((v) => ({ ...v, [name]: value }));
  return {
    values,
    setValues,
    set,
    setProblem,
    field: (name: Field) => ({
      value: values[name],
      onChange: set(name),
      /** The message for this field, or null. */
      error: problem?.field === name ? problem.message : null,
    }),
    /** The message that belongs to no field, for the box above the button. */
    formError: problem && !problem.field ? problem.message : null,
  };
}
