// The auth screen (SPEC §2): sign in, create account, reset password.
import { defaultUsername, findReferralCode, validateAuthSignUp, validateResend, validateSignIn } from '@crw/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { handoff } from '../../../lib/handoff';
import { meQuery } from '../../../lib/session';
import { writeStored } from '../../../lib/storage';
import { checkKeystoreInBackground } from '../../../lib/wallet/keystore-check';
import { Button, LinkButton } from '../../../ui/button';
import { FormMessage, WorkProgress } from '../../../ui/form-message';
import { PasswordField, TextField } from '../../../ui/text-field';
import { requestPasswordReset, resendConfirmation } from '../api/email-links';
import { processPendingReferral } from '../api/pending-referral';
import { signIn } from '../api/sign-in';
import { AuthCard } from '../components/auth-card';
import { TwoFactorStep } from '../components/two-factor-step';
import callout from '../../../ui/callout.module.css';
import styles from '../components/auth.module.css';
import { useCreateAccount } from '../hooks/use-create-account';
import { otherError, signInError, signUpError } from '../messages';

type Mode = 'signin' | 'signup' | 'reset';

const screens: Record<Mode, { title: string; subtitle: string }> = {
  signin: { title: 'Welcome Back', subtitle: 'Sign in to see your CAPs, your REME and your community.' },
  signup: { title: 'Create Account', subtitle: 'Join the community: your wallet is made right here, in your browser.' },
  reset: { title: 'Reset Password', subtitle: 'Enter your e-mail address and we will send you a link to choose a new password.' },
};

export function Component() {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const referralCode = findReferralCode(location);
  const registeredEmail = (location.state as { registeredEmail?: string } | null)?.registeredEmail;
  const [mode, setMode] = useState<Mode>(referralCode || location.pathname === '/signup' ? 'signup' : 'signin');
  const [email, setEmail] = useState(registeredEmail ?? '');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(
    registeredEmail ? `Account created! We sent a confirmation link to ${registeredEmail}. Click it to activate your account.` : null,
  );
  const [canResend, setCanResend] = useState(Boolean(registeredEmail));
  const [busy, setBusy] = useState(false);
  const [codeStep, setCodeStep] = useState(false);
  const account = useCreateAccount((e) => setError(signUpError(e, 'auth', Boolean(referralCode))));

  function switchMode(next: Mode) {
    setMode(next);
    setError(null);
    setSuccess(null);
    setCanResend(false);
    if (next !== 'signup') setUsername('');
  }

  async function onSignIn() {
    const problem = validateSignIn({ email, password });
    if (problem) return setError(problem);
    setBusy(true);
    try {
      const { needsCode } = await signIn(email, password);
      if (needsCode) {
        setBusy(false);
        return setCodeStep(true);
      }
    } catch (e) {
      setBusy(false);
      setCanResend(e instanceof ApiError && e.code === 'email_not_confirmed');
      return setError(signInError(e));
    }
    await openWallet();
  }

  /** Signed in: fetch the member and open the dashboard at once (docs/product.md: no 1 s wait); the
   * keystore is checked in the worker meanwhile. After a password reset it opens only with the old
   * password, and the server says so: the recovery screen comes first. */
  async function openWallet() {
    setCodeStep(false);
    setBusy(true);
    try {
      // Fetched fresh, and left in the cache for the dashboard that opens next.
      const me = await queryClient.fetchQuery({ ...meQuery, staleTime: 0 });
      if (me.wallet.lockedByOldPassword) {
        handoff.put('recoveryPassword', password);
        return navigate('/recover-wallet');
      }
      writeStored('allowed', 'true');
      await processPendingReferral(me.id);
      checkKeystoreInBackground(me.wallet.keystore, password);
      navigate('/dashboard');
    } catch (e) {
      setBusy(false);
      setError(signInError(e));
    }
  }

  async function onSignUp() {
    const problem = validateAuthSignUp({ email, password, confirmPassword });
    if (problem) return setError(problem);
    await account.createAccount({
      email,
      password,
      username: defaultUsername(username, email),
      // No placeholder name (the original sent 'User' / 'User', greeting members as "User User").
      ...(referralCode ? { referralCode } : {}),
    });
  }

  async function onReset() {
    if (!email.trim()) return setError('Email address is required');
    setBusy(true);
    try {
      await requestPasswordReset(email);
      setSuccess('Password reset email sent. Check your inbox for the link.');
    } catch (e) {
      setError(otherError(e));
    } finally {
      setBusy(false);
    }
  }

  async function onResend() {
    const problem = validateResend(email);
    if (problem) return setError(problem);
    setError(null);
    setBusy(true);
    try {
      await resendConfirmation(email);
      setSuccess('Confirmation email resent. Please check your inbox and spam folder.');
    } catch (e) {
      setError(e instanceof ApiError && e.code === 'rate_limited' ? e.message : 'Failed to resend confirmation email. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setSuccess(null);
    void (mode === 'signin' ? onSignIn() : mode === 'signup' ? onSignUp() : onReset());
  }

  const working = busy || account.busy;
  const { title, subtitle } = screens[mode];
  if (codeStep) {
    return (
      <AuthCard title="Two-factor sign-in" subtitle="One more step keeps your wallet yours.">
        <TwoFactorStep
          onVerified={() => void openWallet()}
          onRestart={() => {
            setCodeStep(false);
            setPassword('');
          }}
        />
      </AuthCard>
    );
  }
  return (
    <AuthCard title={title} subtitle={subtitle}>
      {referralCode && mode === 'signup' ? (
        <p className={callout.info} role="status">
          Referral code <strong>{referralCode}</strong> applied! You will earn bonus CAPs when you join.
        </p>
      ) : null}
      <form onSubmit={onSubmit} noValidate>
        <TextField label="Email" type="email" autoComplete="email" value={email} onChange={setEmail} />
        {mode === 'signup' ? <TextField label="Username (optional)" autoComplete="username" value={username} onChange={setUsername} /> : null}
        {mode !== 'reset' ? (
          <PasswordField label="Password" autoComplete={mode === 'signup' ? 'new-password' : 'current-password'} value={password} onChange={setPassword} />
        ) : null}
        {mode === 'signup' ? <PasswordField label="Confirm password" autoComplete="new-password" value={confirmPassword} onChange={setConfirmPassword} /> : null}
        {mode === 'signin' ? (
          <div className={styles.row}>
            <LinkButton onClick={() => switchMode('reset')}>Forgot Password?</LinkButton>
          </div>
        ) : null}
        <FormMessage error={error} success={success} />
        {account.progress !== null ? <WorkProgress label="Creating your wallet…" fraction={account.progress} /> : null}
        <Button type="submit" busy={working}>
          {mode === 'signin' ? 'LOGIN' : mode === 'signup' ? 'CREATE ACCOUNT' : 'SEND RESET EMAIL'}
        </Button>
      </form>
      {canResend ? (
        <p className={styles.center}>
          <Button variant="secondary" onClick={() => void onResend()} busy={busy}>
            Resend Email
          </Button>
        </p>
      ) : null}
      <p className={styles.center}>
        {mode === 'signin' ? (
          <>
            Don&apos;t have an account? <LinkButton onClick={() => switchMode('signup')}>Register Here</LinkButton>
          </>
        ) : (
          <LinkButton onClick={() => switchMode('signin')}>Back to Sign In</LinkButton>
        )}
      </p>
    </AuthCard>
  );
}
