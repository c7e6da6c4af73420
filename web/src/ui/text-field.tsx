import {
  useId,
  useState,
  type InputHTMLAttributes,
  type ReactNode,
  type TextareaHTMLAttributes,
} from 'react';
import styles from './forms.module.css';

interface FieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** What is wrong with this field: shown under it, announced, and tied to it (aria-describedby). */
  error?: string | null | undefined;
  /** The rule the field follows, said before anything is typed (tied to it as its description). */
  hint?: string | undefined;
}

type TextFieldProps = FieldProps &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'>;

/** The attributes that mark a control in error and point it at its message and its hint. */
function describedProps(id: string, error: string | null | undefined, hint: string | undefined) {
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean);
  return {
    ...(error ? { 'aria-invalid': true } : {}),
    ...(describedBy.length ? { 'aria-describedby': describedBy.join(' ') } : {}),
  };
}

/** What a field's control is drawn with: its id, value and setter, the caller's own attributes,
 * and those that mark it in error. */
type ControlProps<Props> = Omit<Props, keyof FieldProps> & {
  id: string;
  value: string;
  onChange: (event: { target: { value: string } }) => void;
};

/** The frame every field shares: its label, its control (drawn by `control`) and its error under
 * it, tied together by one id. */
function Field<Props extends FieldProps>({
  props,
  control,
}: {
  props: Props;
  control: (attributes: ControlProps<Props>) => ReactNode;
}) {
  const { label, value, onChange, error, hint, ...rest } = props;
  const id = useId();
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      {control({
        id,
        value,
        onChange: (e) => onChange(e.target.value),
        ...rest,
        ...describedProps(id, error, hint),
      })}
      {hint ? (
        <p id={`${id}-hint`} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} role="alert" className={styles.fieldError}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function TextField(props: TextFieldProps) {
  return (
    <Field
      props={props}
      control={(attributes) => <input className={styles.input} {...attributes} />}
    />
  );
}

/** A password input with a show/hide toggle. */
export function PasswordField(props: TextFieldProps) {
  const [visible, setVisible] = useState(false);
  return (
    <Field
      props={props}
      control={(attributes) => (
        <div className={styles.inputRow}>
          <input className={styles.input} type={visible ? 'text' : 'password'} {...attributes} />
          <button
            type="button"
            className={styles.toggle}
            onClick={() => setVisible((v) => !v)}
            aria-label={`${visible ? 'Hide' : 'Show'} ${props.label.toLowerCase()}`}
          >
            {visible ? 'Hide' : 'Show'}
          </button>
        </div>
      )}
    />
  );
}

type TextAreaFieldProps = FieldProps &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'onChange' | 'value'>;

/** A box for a longer entry (the 12 words): it grows with what is typed, so nothing is hidden. */
export function TextAreaField(props: TextAreaFieldProps) {
  return (
    <Field
      props={props}
      control={(attributes) => <textarea className={styles.textarea} {...attributes} />}
    />
  );
}

/** Where a member types their 12 recovery words: no autofill, capitals or spell-check (a phrase
 * is not prose, and no browser should keep it). */
export function PhraseField(props: TextAreaFieldProps) {
  return <TextAreaField autoComplete="off" autoCapitalize="none" spellCheck={false} {...props} />;
}
