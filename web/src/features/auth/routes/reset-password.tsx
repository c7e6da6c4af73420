// The page the reset e-mail links to: choose a new password. A link that does not work
// (used, expired, cut short) says so and sends a new one from here.
import { validateAuthSignUp } from '@crw/core';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import callout from '../../../ui/callout.module.css';
import { FormMessage, useForm } from '../../../ui/form-message';
import { PasswordField, TextField } from '../../../ui/text-field';
import { requestPasswordReset, setNewPassword } from '../api/email-links';
import { AuthCard } from '../components/auth-card';
import { useSignupGate } from '../hooks/use-signup-gate';
import styles from '../components/auth.module.css';
import { otherError } from '../messages';

export function Component() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const email = params.get('email') ?? '';
  const [linkWorks, setLinkWorks] = useState(Boolean(token && email && !params.get('error')));
  if (!linkWorks) return <NewLinkRequest email={email} />;
  return <NewPasswordForm token={token!} email={email} onLinkRefused={() => setLinkWorks(false)} />;
}

function NewPasswordForm({
  token,
  email,
  onLinkRefused,
}: {
  token: string;
  email: string;
  onLinkRefused: () => void;
}) {
  const { values, field, setProblem, formError } = useForm({ password: '', confirmPassword: '' });
  const { password, confirmPassword } = values;
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    const invalid = validateAuthSignUp({ email, password, confirmPassword });
    // The e-mail comes with the link, so a problem with it is the link's, not a field's.
    if (invalid)
      return setProblem({
        field: invalid.field === 'email' ? undefined : invalid.field,
        message: invalid.message,
      });
    setBusy(true);
    try {
      await setNewPassword(token, email, password);
      setDone(true);
    } catch (e) {
      // Used in another tab, or expired while the page was open.
      if (e instanceof ApiError && e.code === 'invalid_token') return onLinkRefused();
      setProblem({ message: otherError(e) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard
      title="Choose a new password"
      subtitle={`For ${email}. Your wallet will ask for your old password or your 12 words once, after you sign in.`}
    >
      {done ? (
        <>
          <FormMessage success="Your password has been changed. Sign in with your new password." />
          <p className={styles.center}>
            <Link to="/">Back to sign in</Link>
          </p>
        </>
      ) : (
        <form onSubmit={(e) => void onSubmit(e)} noValidate>
          <PasswordField label="New password" autoComplete="new-password" {...field('password')} />
          <PasswordField
            label="Confirm new password"
            autoComplete="new-password"
            {...field('confirmPassword')}
          />
          <FormMessage error={formError} />
          <Button type="submit" busy={busy}>
            Save new password
          </Button>
        </form>
      )}
    </AuthCard>
  );
}

/** The next step after a link that does not work: a new link, to the address it was sent to. */
function NewLinkRequest({ email: linkEmail }: { email: string }) {
  const { values, field, setProblem, formError } = useForm({ email: linkEmail });
  const { email } = values;
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const gate = useSignupGate(sent ? null : 'reset');

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    if (!email.trim()) return setProblem({ field: 'email', message: 'Email address is required' });
    setBusy(true);
    try {
      await gate.send((pass) => requestPasswordReset(email, pass));
      setSent(true);
    } catch (e) {
      setProblem({ message: otherError(e) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard
      title="Ask for a new reset link"
      subtitle="We will e-mail you a new link to choose your password."
    >
      <p className={callout.warning} role="note">
        This reset link is invalid or has expired. Each link works once, within an hour of being
        sent.
      </p>
      {sent ? (
        <FormMessage success="Password reset email sent. Check your inbox for the link." />
      ) : (
        <form onSubmit={(e) => void onSubmit(e)} noValidate>
          <TextField label="Email" type="email" autoComplete="email" {...field('email')} />
          <FormMessage error={formError} />
          <Button type="submit" busy={busy}>
            Send a new link
          </Button>
        </form>
      )}
      <p className={styles.center}>
        <Link to="/">Back to sign in</Link>
      </p>
    </AuthCard>
  );
}
