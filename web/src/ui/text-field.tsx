import { useId, useState, type InputHTMLAttributes } from 'react';
import styles from './forms.module.css';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> {
  label: string;
  value: string;
  onChange: (value: string) => void;
}

export function TextField({ label, value, onChange, ...rest }: TextFieldProps) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <input id={id} className={styles.input} value={value} onChange={(e) => onChange(e.target.value)} {...rest} />
    </div>
  );
}

/** A password input with a show/hide toggle. */
export function PasswordField({ label, value, onChange, ...rest }: TextFieldProps) {
  const id = useId();
  const [visible, setVisible] = useState(false);
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <div className={styles.inputRow}>
        <input id={id} className={styles.input} type={visible ? 'text' : 'password'} value={value} onChange={(e) => onChange(e.target.value)} {...rest} />
        <button type="button" className={styles.toggle} onClick={() => setVisible((v) => !v)} aria-label={`${visible ? 'Hide' : 'Show'} ${label.toLowerCase()}`}>
          {visible ? 'Hide' : 'Show'}
        </button>
      </div>
    </div>
  );
}
