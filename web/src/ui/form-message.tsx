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

/** A form's problem: a field's (shown under that field, which is marked) or the whole form's. */
export interface FormError<Field extends string> {
  field?: Field | undefined;
  message: string;
}

/** A form of text fields and its problems. `field(name)` is what a field needs (its value, its
 * setter, its error), so each field reads `<TextField label="Email" {...field('email')} />`.
 * `setProblem` shows one problem; `setProblems` shows several at once (each field its own). */
export function useForm<Values extends Record<string, string>>(
  initial: Values,
  initialProblem: FormError<keyof Values & string> | null = null,
) {
  type Field = keyof Values & string;
  const [values, setValues] = useState(initial);
  const [problems, setProblems] = useState<FormError<Field>[]>(
    initialProblem ? [initialProblem] : [],
  );
  const set = (name: Field) => (value: string) => setValues((v) => ({ ...v, [name]: value }));
  return {
    values,
    setValues,
    set,
    setProblem: (problem: FormError<Field> | null) => setProblems(problem ? [problem] : []),
    setProblems,
    field: (name: Field) => ({
      value: values[name],
      onChange: set(name),
      /** The message for this field, or null. */
      error: problems.find((p) => p.field === name)?.message ?? null,
    }),
    /** The message that belongs to no field, for the box above the button. */
    formError: problems.find((p) => !p.field)?.message ?? null,
  };
}
