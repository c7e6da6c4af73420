// Two-factor sign-in with an authenticator app: turned on with the password, the app's link (on
// the phone that has the app), a QR code (from another device) or the key typed in, and a first
// code; ten backup codes shown once; turned off with the password and a code.
import type { UserDetails } from '@crw/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Check, Copy, ShieldCheck, Smartphone } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client';
import { useCopy } from '../../../lib/use-copy';
import { Button } from '../../../ui/button';
import { CardSection } from '../../../ui/card-section';
import { FormMessage } from '../../../ui/form-message';
import forms from '../../../ui/forms.module.css';
import { PasswordField, TextField } from '../../../ui/text-field';
import { notify } from '../../../ui/toaster';
import hidden from '../../../ui/visually-hidden.module.css';
import { confirmTwoFactor, securityQuery, startTwoFactor, turnOffTwoFactor } from '../api/settings';
import styles from './account.module.css';
import { StepForm } from './step-form';

interface Enrolment {
  uri: string;
  secret: string;
  backupCodes: string[];
}

const problemText = (e: unknown, fallback: string) =>
  e instanceof ApiError ? e.message : fallback;

/** The QR code as an SVG image (drawn here: the secret never leaves the page). */
function QrCode({ uri }: { uri: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode').then(({ toString }) =>
      toString(uri, { type: 'svg', margin: 0, errorCorrectionLevel: 'M' }).then((svg) => {
        if (live) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
      }),
    );
    return () => {
      live = false;
    };
  }, [uri]);
  return src ? (
    <img className={styles.qr} src={src} alt="QR code for your authenticator app" />
  ) : (
    <div className={styles.qr} aria-hidden="true" />
  );
}

/** The key in groups of four ("JBSW Y3DP …"), as authenticator apps print it. */
const groupedKey = (secret: string) => (secret.match(/.{1,4}/g) ?? []).join(' ');
/** The key as a screen reader should read it: each character, a pause between groups. */
const spelledKey = (secret: string) =>
  (secret.match(/.{1,4}/g) ?? []).map((group) => [...group].join(' ')).join(', ');

/** The key to type by hand: shown grouped, copied whole (apps take it without spaces). */
function ManualKey({ secret }: { secret: string }) {
  const { copied, copy } = useCopy();
  async function onCopy() {
    if (!(await copy(secret)))
      notify.error('Your browser did not allow copying. Select the key and copy it instead.');
  }
  return (
    <div className={styles.keyRow}>
      <code className={styles.secret} data-testid="totp-secret" aria-hidden="true">
        {groupedKey(secret)}
      </code>
      <span className={hidden.visuallyHidden}>Key: {spelledKey(secret)}</span>
      <Button
        variant="secondary"
        className={`${styles.action} ${styles.copyKey}`}
        onClick={() => void onCopy()}
        aria-label={copied ? 'Key copied' : 'Copy key'}
      >
        {copied ? <Check aria-hidden="true" size={16} /> : <Copy aria-hidden="true" size={16} />}
        {copied ? 'Copied' : 'Copy key'}
      </Button>
    </div>
  );
}

export function TwoFactorSection({ me }: { me: UserDetails }) {
  const queryClient = useQueryClient();
  const security = useQuery(securityQuery);
  const [stage, setStage] = useState<'idle' | 'password' | 'scan' | 'off'>('idle');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const copy = useCopy();
  const enabled = security.data?.twoFactorEnabled ?? false;

  const reset = (next: typeof stage = 'idle') => {
    setStage(next);
    setPassword('');
    setCode('');
    setError(null);
  };

  /** What every step's form shares: its problem, whether it is working, and Cancel. */
  const step = { error, busy, onCancel: () => reset() };
  /** The password and the code are asked the same way in each step that asks for them. */
  const passwordProps = {
    label: 'Your password',
    autoComplete: 'current-password',
    value: password,
    onChange: setPassword,
    autoFocus: true,
  };
  const codeProps = {
    autoComplete: 'one-time-code',
    value: code,
    onChange: setCode,
    'aria-invalid': error ? true : undefined,
  };

  async function run(work: () => Promise<void>, fallback: string) {
    setError(null);
    setSuccess(null);
    setBusy(true);
    try {
      await work();
    } catch (e) {
      setError(problemText(e, fallback));
    } finally {
      setBusy(false);
    }
  }

  const onPassword = (event: FormEvent) => {
    event.preventDefault();
    if (!password) return setError('Enter your password to continue.');
    void run(async () => {
      const started = await startTwoFactor(me.email, password);
      const secret = new URL(started.totpURI).searchParams.get('secret') ?? '';
      setEnrolment({ uri: started.totpURI, secret, backupCodes: started.backupCodes });
      setPassword('');
      setStage('scan');
    }, 'Two-factor sign-in could not be started. Please try again.');
  };

  const onConfirm = (event: FormEvent) => {
    event.preventDefault();
    const value = code.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(value))
      return setError('Enter the 6-digit code your app shows for REME Wallet.');
    void run(async () => {
      await confirmTwoFactor(value);
      await queryClient.invalidateQueries({ queryKey: securityQuery.queryKey });
      setSuccess(
        'Two-factor sign-in is on. From now on you will enter a code from your app when you sign in.',
      );
      setEnrolment(null);
      reset();
    }, 'The code could not be checked. Please try again.');
  };

  const onTurnOff = (event: FormEvent) => {
    event.preventDefault();
    const value = code.replace(/\s+/g, '');
    if (!password) return setError('Enter your password to continue.');
    if (!value) return setError('Enter a code from your app, or one of your backup codes.');
    void run(async () => {
      await turnOffTwoFactor(me.email, password, value);
      await queryClient.invalidateQueries({ queryKey: securityQuery.queryKey });
      setSuccess('Two-factor sign-in is off. Your password alone now signs you in.');
      reset();
    }, 'Two-factor sign-in could not be turned off. Please try again.');
  };

  return (
    <CardSection
      titleId="two-factor-title"
      title={
        <>
          Two-factor sign-in{' '}
          {enabled ? (
            <span className={styles.statusOn}>
              <ShieldCheck aria-hidden="true" size={14} /> On
            </span>
          ) : security.data ? (
            <span className={styles.status}>Off</span>
          ) : null}
        </>
      }
    >
      <p className={styles.lead}>
        {enabled
          ? 'Signing in takes your password and a code from your authenticator app, so a stolen password alone cannot open your account.'
          : 'Add a second step to signing in: a code from an authenticator app on your phone (Google Authenticator, Microsoft Authenticator, 1Password, Authy…).'}
      </p>
      {security.isError ? (
        <FormMessage error="Your security settings could not be loaded. Please reload the page." />
      ) : null}
      <FormMessage success={success} />

      {stage === 'idle' && security.data ? (
        <Button
          variant={enabled ? 'secondary' : 'primary'}
          className={styles.action}
          onClick={() => reset(enabled ? 'off' : 'password')}
        >
          {enabled ? 'Turn off two-factor sign-in' : 'Turn on two-factor sign-in'}
        </Button>
      ) : null}

      {stage === 'password' ? (
        <StepForm onSubmit={onPassword} submitLabel="Continue" {...step}>
          <PasswordField {...passwordProps} aria-invalid={error ? true : undefined} />
        </StepForm>
      ) : null}

      {stage === 'scan' && enrolment ? (
        <ol className={styles.steps}>
          <li>
            <p className={styles.stepTitle}>Add REME Wallet to your authenticator app.</p>
            <p className={styles.hint}>On the phone that has the app:</p>
            <a
              className={`${forms.button} ${styles.action} ${styles.openApp}`}
              href={enrolment.uri}
            >
              <Smartphone aria-hidden="true" size={18} /> Open in authenticator app
            </a>
            <p className={styles.hint}>On another screen, scan this QR code with that phone:</p>
            <QrCode uri={enrolment.uri} />
            <p className={styles.hint}>Or add an account in the app by hand with this key:</p>
            <ManualKey secret={enrolment.secret} />
          </li>
          <li>
            <p className={styles.stepTitle}>Save these backup codes somewhere safe.</p>
            <p className={styles.hint}>Each one signs you in once if you lose your phone.</p>
            <ul className={styles.codes} aria-label="Backup codes">
              {enrolment.backupCodes.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </ul>
            <Button
              variant="secondary"
              className={styles.action}
              onClick={() =>
                void copy.copy(enrolment.backupCodes.join('\n')).then((copied) => {
                  if (!copied)
                    notify.error(
                      'Your browser did not allow copying. Select the codes and copy them instead.',
                    );
                })
              }
            >
              {copy.copied ? 'Copied' : 'Copy backup codes'}
            </Button>
          </li>
          <li>
            <p className={styles.stepTitle}>
              Enter the 6-digit code the app shows for REME Wallet.
            </p>
            <StepForm onSubmit={onConfirm} submitLabel="Turn on" {...step}>
              <TextField label="Code from your app" inputMode="numeric" {...codeProps} />
            </StepForm>
          </li>
        </ol>
      ) : null}

      {stage === 'off' ? (
        <StepForm onSubmit={onTurnOff} submitLabel="Turn off" {...step}>
          <PasswordField {...passwordProps} />
          <TextField label="Code from your app, or a backup code" {...codeProps} />
        </StepForm>
      ) : null}
    </CardSection>
  );
}
