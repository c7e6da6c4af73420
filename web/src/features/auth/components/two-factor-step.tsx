// The sign-in's second step for members who turned on two-factor sign-in: a six-digit code from
// their authenticator app, or one of their backup codes.
import { BACKUP_CODE_PATTERN } from '@crw/core';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client';
import { Button, LinkButton } from '../../../ui/button';
import { TextField } from '../../../ui/text-field';
import { verifySignInCode } from '../api/sign-in';
import styles from './auth.module.css';

export function TwoFactorStep({
  onVerified,
  onRestart,
}: {
  onVerified: () => void;
  onRestart: () => void;
}) {
  const [code, setCode] = useState('');
  const [useBackup, setUseBackup] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const value = code.replace(/\s+/g, '');
    if (!useBackup && !/^\d{6}$/.test(value))
      return setError('Enter the 6-digit code from your authenticator app.');
    if (useBackup && !BACKUP_CODE_PATTERN.test(value))
      return setError('Enter one of your backup codes, like ABCD-EFGH.');
    setError(null);
    setBusy(true);
    try {
      await verifySignInCode(value);
      // The second factor passed: the member is signed in.
      onVerified();
    } catch (e) {
      setBusy(false);
      setError(
        e instanceof ApiError ? e.message : 'That code could not be checked. Please try again.',
      );
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-describedby="two-factor-help">
      <p id="two-factor-help" className={styles.center}>
        {useBackup
          ? 'Enter one of the backup codes you saved when you turned on two-factor sign-in. Each works once.'
          : 'Open your authenticator app and enter the 6-digit code for REME Wallet.'}
      </p>
      <TextField
        label={useBackup ? 'Backup code' : 'Authentication code'}
        value={code}
        onChange={setCode}
        autoComplete="one-time-code"
        inputMode={useBackup ? 'text' : 'numeric'}
        autoFocus
        error={error}
      />
      <Button type="submit" busy={busy}>
        Verify
      </Button>
      <p className={styles.center}>
        <LinkButton
          onClick={() => {
            setUseBackup((b) => !b);
            setCode('');
            setError(null);
          }}
        >
          {useBackup ? 'Use the authenticator app instead' : 'Lost your phone? Use a backup code'}
        </LinkButton>
      </p>
      <p className={styles.center}>
        <LinkButton onClick={onRestart}>Back to sign in</LinkButton>
      </p>
    </form>
  );
}
