// Change password: one step replaces both locks — the login secret the server checks
// and the keystore the password opens — so the wallet never stays locked with the old password.
import { validatePasswordChange, type UserDetails } from '@crw/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client';
import { memberChanged } from '../../../lib/session';
import { WalletTaskError } from '../../../lib/wallet/wallet-client';
import { Button } from '../../../ui/button';
import { CardSection } from '../../../ui/card-section';
import card from '../../../ui/card.module.css';
import { FormMessage, useForm, WorkProgress } from '../../../ui/form-message';
import { PasswordField } from '../../../ui/text-field';
import { changePassword } from '../api/lifecycle';
import account from './account.module.css';
import styles from './account-lifecycle.module.css';

const EMPTY = { currentPassword: '', newPassword: '', confirmPassword: '' };
const WRONG_PASSWORD = 'Your current password is not correct.';

/** The member's words for what went wrong. */
function passwordChangeError(error: unknown): string {
  // The keystore did not open with it: the same answer the server would give.
  if (error instanceof WalletTaskError)
    return error.reason === 'invalid_password'
      ? WRONG_PASSWORD
      : `Your wallet could not be locked with the new password: ${error.message}`;
  if (error instanceof ApiError) {
    if (
      [
        'wrong_password',
        'rate_limited',
        'invalid_wallet_proof',
        'wallet_mismatch',
        'network_error',
        'unauthorized',
      ].includes(error.code)
    )
      return error.message;
    if (error.code === 'conflict')
      return 'Your password was changed elsewhere meanwhile. Reload the page and try again.';
  }
  return `Your password could not be changed: ${error instanceof Error ? error.message : String(error)}`;
}

export function PasswordSection({ me }: { me: UserDetails }) {
  const queryClient = useQueryClient();
  const { values: form, setValues: setForm, field, setProblem, formError } = useForm(EMPTY);
  const [success, setSuccess] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    setSuccess(null);
    const problem = validatePasswordChange(form);
    if (problem) return setProblem(problem);
    setProgress(0);
    try {
      const result = await changePassword(
        {
          email: me.email,
          keystore: me.wallet.keystore,
          currentPassword: form.currentPassword,
          newPassword: form.newPassword,
        },
        setProgress,
      );
      setForm(EMPTY);
      const elsewhere =
        result.otherSessionsEnded > 0 ? ' You were signed out on your other devices.' : '';
      setSuccess(
        `Your password has been changed. Use your new password to sign in and to unlock your wallet.${elsewhere}`,
      );
      // The keystore the page holds is the old one: read the new one.
      memberChanged();
      await queryClient.invalidateQueries({ queryKey: ['me'] });
    } catch (e) {
      const message = passwordChangeError(e);
      setProblem({ field: message === WRONG_PASSWORD ? 'currentPassword' : undefined, message });
    } finally {
      setProgress(null);
    }
  }

  return (
    <CardSection titleId="password-title" title="Password">
      <p className={`${card.muted} ${styles.intro}`}>
        Your password signs you in and locks your wallet on this device. Changing it re-locks your
        wallet with the new one and signs you out everywhere else. Your 12-word recovery phrase
        stays the same.
      </p>
      <form
        onSubmit={(e) => void onSubmit(e)}
        noValidate
        aria-label="Change password"
        className={account.form}
      >
        <PasswordField
          label="Current password"
          autoComplete="current-password"
          {...field('currentPassword')}
        />
        <PasswordField label="New password" autoComplete="new-password" {...field('newPassword')} />
        <PasswordField
          label="Confirm new password"
          autoComplete="new-password"
          {...field('confirmPassword')}
        />
        <FormMessage error={formError} success={success} />
        {progress !== null ? (
          <WorkProgress label="Securing your wallet with your new password…" fraction={progress} />
        ) : null}
        <Button type="submit" busy={progress !== null} className={styles.action}>
          Change password
        </Button>
      </form>
    </CardSection>
  );
}
