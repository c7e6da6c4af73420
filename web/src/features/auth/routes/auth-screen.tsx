// The auth screen: sign in, create account, reset password.
import { findReferralCode, validateResend, validateSignIn } from '@crw/core';
import { useQueryClient } from '@tanstack/react-query';
import { Fingerprint } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { carryOver } from '../../../lib/carry-over';
import { meQuery, useLogout } from '../../../lib/session';
import { writeStored } from '../../../lib/storage';
import { checkKeystoreInBackground } from '../../../lib/wallet/keystore-check';
import { Button, LinkButton } from '../../../ui/button';
import { FormMessage, useForm } from '../../../ui/form-message';
import { PasswordField, TextField } from '../../../ui/text-field';
import { requestPasswordReset, resendConfirmation } from '../api/email-links';
import { processPendingReferral } from '../api/pending-referral';
import { signIn, signInWithPasskey } from '../api/sign-in';
import {
  autofillSupported,
  cancelPasskeyRequest,
  PasskeyCancelled,
  passkeysSupported,
} from '../../../lib/passkeys';
import { AuthCard } from '../components/auth-card';
import { ReferralNotice, useReferralCheck } from '../components/referral-notice';
import { SignUpForm } from '../components/sign-up-form';
import { TwoFactorStep } from '../components/two-factor-step';
import { confirmationLinkNotice } from '../confirmation-link';
import styles from '../components/auth.module.css';
import { useSignupGate } from '../hooks/use-signup-gate';
import { GateUnavailableError } from '../../../lib/gate/solve-gate';
import { otherError, signInError } from '../messages';

type Mode = 'signin' | 'signup' | 'reset';

const PASSWORD_RESET_FIRST =
  'Your password was reset. Sign in once with your e-mail and new password to unlock your wallet with it.';

const screens: Record<Mode, { title: string; subtitle: string }> = {
  signin: {
    title: 'Welcome back',
    subtitle: 'Sign in to see your CAPs, your REME and your community.',
  },
  signup: {
    title: 'Create your account',
    subtitle: 'Join the community: your wallet is made right here, in your browser.',
  },
  reset: {
    title: 'Reset your password',
    subtitle: 'Enter your e-mail address and we will send you a link to choose a new password.',
  },
};

export function Component() {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const logout = useLogout();
  const referralCode = findReferralCode(location);
  const registeredEmail = (location.state as { registeredEmail?: string } | null)?.registeredEmail;
  const [linkNotice] = useState(() => confirmationLinkNotice(location.search));
  const [mode, setMode] = useState<Mode>(
    referralCode || location.pathname === '/signup' ? 'signup' : 'signin',
  );
  const referral = useReferralCheck(referralCode);
  const { values, set, field, setProblem, formError } = useForm(
    { email: registeredEmail ?? '', password: '' },
    linkNotice && 'error' in linkNotice ? { message: linkNotice.error } : null,
  );
  const { email, password } = values;
  const [success, setSuccess] = useState<string | null>(
    registeredEmail
      ? `Account created! We sent a confirmation link to ${registeredEmail}. Click it to activate your account.`
      : linkNotice && 'success' in linkNotice
        ? linkNotice.success
        : null,
  );
  const [canResend, setCanResend] = useState(
    Boolean(registeredEmail) || Boolean(linkNotice?.resend),
  );
  const [busy, setBusy] = useState(false);
  const [codeStep, setCodeStep] = useState(false);
  const [passkeyBusy, setPasskeyBusy] = useState(false);
  const setError = (message: string) => setProblem({ message });
  // The form on screen passes the sign-up gate: asking for a reset link, or (once the Resend
  // e-mail button shows) resending the confirmation. The sign-up form has its own.
  const gate = useSignupGate(mode === 'reset' ? 'reset' : canResend ? 'resend' : null);

  function switchMode(next: Mode) {
    setMode(next);
    setProblem(null);
    setSuccess(null);
    setCanResend(false);
  }

  async function onSignIn() {
    const invalid = validateSignIn({ email, password });
    if (invalid) return setProblem(invalid);
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
   * password, and the server says so: the recovery screen comes first, which needs the new password
   * (a passkey sign-in has none: the member is asked to sign in with it once). */
  async function openWallet(withPasskey = false) {
    setCodeStep(false);
    setBusy(true);
    try {
      // Fetched fresh, and left in the cache for the dashboard that opens next.
      const me = await queryClient.fetchQuery({ ...meQuery, staleTime: 0 });
      if (me.wallet.lockedByOldPassword && withPasskey) {
        setBusy(false);
        return await logout({ notice: PASSWORD_RESET_FIRST });
      }
      if (me.wallet.lockedByOldPassword) {
        carryOver.put('recoveryPassword', password);
        return navigate('/recover-wallet');
      }
      writeStored('allowed', 'true');
      await processPendingReferral(me.id);
      if (!withPasskey) {
        checkKeystoreInBackground(me.wallet.keystore, password);
        carryOver.put('passwordSignIn', 'yes');
      }
      navigate('/dashboard');
    } catch (e) {
      setBusy(false);
      setError(signInError(e));
    }
  }

  /** The passkey button: the browser's prompt, then the wallet opens as after a password. */
  async function onPasskey() {
    setProblem(null);
    setSuccess(null);
    setPasskeyBusy(true);
    try {
      await signInWithPasskey();
    } catch (e) {
      setPasskeyBusy(false);
      return setError(
        e instanceof PasskeyCancelled
          ? 'Your passkey was not used. Try again, or sign in with your e-mail and password.'
          : signInError(e),
      );
    }
    await openWallet(true);
    setPasskeyBusy(false);
  }

  // Where the browser offers passkeys among the e-mail field's suggestions, one is asked for as
  // the screen opens; picking it signs in as the button does. Closing the screen stops the request.
  const offerAutofill = mode === 'signin' && !codeStep && passkeysSupported();
  useEffect(() => {
    if (!offerAutofill) return;
    let live = true;
    void autofillSupported().then((supported) => {
      if (!supported || !live) return;
      // Offered, never insisted on: a request that fails (cancelled by the button or by leaving,
      // refused, limited) says nothing here; the button and the password are still there.
      signInWithPasskey(true).then(
        () => live && void openWallet(true),
        () => undefined,
      );
    });
    return () => {
      live = false;
      cancelPasskeyRequest();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per sign-in screen shown
  }, [offerAutofill]);

  async function onReset() {
    if (!email.trim()) return setProblem({ field: 'email', message: 'Email address is required' });
    setBusy(true);
    try {
      await gate.send((pass) => requestPasswordReset(email, pass));
      setSuccess('Password reset email sent. Check your inbox for the link.');
    } catch (e) {
      setError(otherError(e));
    } finally {
      setBusy(false);
    }
  }

  async function onResend() {
    const invalid = validateResend(email);
    if (invalid) return setProblem(invalid);
    setProblem(null);
    setBusy(true);
    try {
      await gate.send((pass) => resendConfirmation(email, pass));
      setSuccess('Confirmation email resent. Please check your inbox and spam folder.');
    } catch (e) {
      setError(
        (e instanceof ApiError && e.code === 'rate_limited') || e instanceof GateUnavailableError
          ? e.message
          : 'Failed to resend confirmation email. Please try again.',
      );
    } finally {
      setBusy(false);
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    setSuccess(null);
    void (mode === 'signin' ? onSignIn() : onReset());
  }

  const { subtitle } = screens[mode];
  // A member who has just registered or confirmed their address has never been here: no "back".
  const newMember = Boolean(registeredEmail) || Boolean(linkNotice && 'success' in linkNotice);
  const title = mode === 'signin' && newMember ? 'Welcome' : screens[mode].title;
  if (codeStep) {
    return (
      <AuthCard title="Two-factor sign-in" subtitle="One more step keeps your wallet yours.">
        <TwoFactorStep
          onVerified={() => void openWallet()}
          onRestart={() => {
            setCodeStep(false);
            set('password')('');
          }}
        />
      </AuthCard>
    );
  }
  /** Drops a referral link's unknown code and keeps what was typed. */
  function continueWithoutCode() {
    navigate({ pathname: location.pathname, search: '', hash: '' }, { replace: true });
  }

  // An unknown code is said before anything is typed; the form follows once the member goes on without it.
  const referralBlocks =
    mode === 'signup' && (referral?.check === 'checking' || referral?.check === 'unknown');
  return (
    <AuthCard title={title} subtitle={subtitle}>
      {referralCode && referral && mode === 'signup' ? (
        <ReferralNotice
          code={referralCode}
          check={referral.check}
          inviter={referral.inviter}
          onContinueWithout={continueWithoutCode}
        />
      ) : null}
      {referralBlocks ? null : mode === 'signup' ? (
        <SignUpForm referralCode={referralCode} initialEmail={email} />
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <TextField
            label="Email"
            type="email"
            autoComplete={mode === 'signin' ? 'email webauthn' : 'email'}
            {...field('email')}
          />
          {mode === 'signin' ? (
            <PasswordField
              label="Password"
              autoComplete="current-password"
              {...field('password')}
            />
          ) : null}
          {mode === 'signin' ? (
            <div className={styles.row}>
              <LinkButton onClick={() => switchMode('reset')}>Forgot password?</LinkButton>
            </div>
          ) : null}
          <FormMessage error={formError} success={success} />
          <Button type="submit" busy={busy && !passkeyBusy}>
            {mode === 'signin' ? 'Sign in' : 'Send reset link'}
          </Button>
          {mode === 'signin' && passkeysSupported() ? (
            <>
              <p className={styles.or}>or</p>
              <Button
                variant="secondary"
                busy={passkeyBusy}
                disabled={busy && !passkeyBusy}
                onClick={() => void onPasskey()}
              >
                <Fingerprint aria-hidden="true" size={18} />
                Sign in with a passkey
              </Button>
            </>
          ) : null}
        </form>
      )}
      {canResend ? (
        <p className={styles.center}>
          <Button variant="secondary" onClick={() => void onResend()} busy={busy}>
            Resend confirmation e-mail
          </Button>
        </p>
      ) : null}
      <p className={styles.center}>
        {mode === 'signin' ? (
          <>
            Don&apos;t have an account?{' '}
            <LinkButton onClick={() => switchMode('signup')}>Create an account</LinkButton>
          </>
        ) : (
          <LinkButton onClick={() => switchMode('signin')}>Back to sign in</LinkButton>
        )}
      </p>
    </AuthCard>
  );
}
