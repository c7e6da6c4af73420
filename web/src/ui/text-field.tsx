import { useId, useState, type InputHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import styles from './forms.module.css';

interface FieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** What is wrong with this field: shown under it, announced, and tied to it (aria-describedby). */
  error?: string | null | undefined;
}

type TextFieldProps = FieldProps &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'>;

/** The attributes that mark a control in error and point it at its message. */
function errorProps(id: string, error: string | null | undefined) {
  return error ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {};
}

function FieldError({ id, error }: { id: string; error: string | null | undefined }) {
  if (!error) return null;
  return (
    <p id={`${id}-error`} role="alert" className={styles.fieldError}>
      {error}
    </p>
  );
}

export function TextField({ label, value, onChange, error, ...rest }: TextFieldProps) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className={styles.input}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        {...rest}
        {...errorProps(id, error)}
      />
      <FieldError id={id} error={error} />
    </div>
  );
}

/** A password input with a show/hide toggle. */
export function PasswordField({ label, value, onChange, error, ...rest }: TextFieldProps) {
  const id = useId();
  const [visible, setVisible] = useState(false);
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <div className={styles.inputRow}>
        <input
          id={id}
          className={styles.input}
          type={visible ? 'text' : 'password'}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          {...rest}
          {...errorProps(id, error)}
        />
        <button
          type="button"
          className={styles.toggle}
          onClick={() => setVisible((v) => !v)}
          aria-label={`${visible ? 'Hide' : 'Show'} ${label.toLowerCase()}`}
        >
          {visible ? 'Hide' : 'Show'}
        </button>
      </div>
      <FieldError id={id} error={error} />
    </div>
  );
}

type TextAreaFieldProps = FieldProps &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'onChange' | 'value'>;

/** A box for a longer entry (the 12 words): it grows with what is typed, so nothing is hidden. */
export function TextAreaField({ label, value, onChange, error, ...rest }: TextAreaFieldProps) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        className={styles.textarea}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        {...rest}
        {...errorProps(id, error)}
      />
      <FieldError id={id} error={error} />
    </div>
  );
}
