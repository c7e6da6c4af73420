// The page the reset e-mail links to: choose a new password (SPEC §4).
import { validateAuthSignUp } from '@crw/core';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../../ui/button';
import { FormMessage } from '../../../ui/form-message';
import { PasswordField } from '../../../ui/text-field';
import { setNewPassword } from '../api/email-links';
import { AuthCard } from '../components/auth-card';
import styles from '../components/auth.module.css';
import { otherError } from '../messages';

export function Component() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const email = params.get('email') ?? '';
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  if (!token || !email || params.get('error')) {
    return (
      <AuthCard title="Choose a new password" subtitle="This reset link is invalid or has expired.">
        <p className={styles.center}>
          <Link to="/">Back to Sign In</Link> and use Forgot Password? to get a new link.
        </p>
      </AuthCard>
    );
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const problem = validateAuthSignUp({ email, password, confirmPassword });
    if (problem) return setError(problem);
    setBusy(true);
    try {
      await setNewPassword(token!, email, password);
      setDone(true);
    } catch (e) {
      setError(otherError(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Choose a new password" subtitle={`For ${email}. Your wallet will ask for your old password or your 12 words once, after you sign in.`}>
      {done ? (
        <>
          <FormMessage success="Your password has been changed. Sign in with your new password." />
          <p className={styles.center}>
            <Link to="/">Back to Sign In</Link>
          </p>
        </>
      ) : (
        <form onSubmit={(e) => void onSubmit(e)} noValidate>
          <PasswordField label="New password" autoComplete="new-password" value={password} onChange={setPassword} />
          <PasswordField label="Confirm new password" autoComplete="new-password" value={confirmPassword} onChange={setConfirmPassword} />
          <FormMessage error={error} />
          <Button type="submit" busy={busy}>
            Save new password
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
