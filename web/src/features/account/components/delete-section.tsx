// Delete my account: what stays and what is lost first, the
// password again, then the two confirmations; the server deletes everything of the member and
// ends every session, and this browser forgets the member and returns to the start page.
import type { UserDetails } from '@crw/core';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client';
import { beginLeaving, stopLeaving, useLogout } from '../../../lib/session';
import { Button } from '../../../ui/button';
import callout from '../../../ui/callout.module.css';
import { CardSection } from '../../../ui/card-section';
import { FormMessage } from '../../../ui/form-message';
import { PasswordField } from '../../../ui/text-field';
import { notify } from '../../../ui/toaster';
import { deleteMyAccount } from '../api/lifecycle';
import account from './account.module.css';
import styles from './account-lifecycle.module.css';
import { ConfirmDialog } from './confirm-dialog';

/** The two confirmation questions, asked in this order. */
export const FIRST_QUESTION =
  'Are you sure you want to delete your account? This action cannot be undone.';
export const SECOND_QUESTION =
  'This will permanently delete all your data. Are you absolutely sure?';

type Step = 'form' | 'first' | 'second';

export function DeleteSection({ me }: { me: UserDetails }) {
  const logout = useLogout();
  const [password, setPassword] = useState('');
  const [step, setStep] = useState<Step>('form');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  function ask(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!password) return setError('Please enter your password to delete your account');
    setStep('first');
  }

  async function remove() {
    setBusy(true);
    // Deleting ends every session: this tab's own stream then says "signed out", which is not news.
    beginLeaving();
    try {
      await deleteMyAccount(me.email, password);
      notify.success('Account deleted successfully');
      // The server ended every session; this browser forgets the member and goes to the start page.
      await logout();
    } catch (e) {
      stopLeaving();
      const reason = e instanceof ApiError || e instanceof Error ? e.message : String(e);
      const message = `Failed to delete account: ${reason}`;
      setError(message);
      notify.error(message);
      setStep('form');
      setBusy(false);
    }
  }

  return (
    <CardSection titleId="delete-title" title="Delete account">
      <div className={callout.warning}>
        <p className={styles.intro}>Before you go:</p>
        <ul className={styles.list}>
          <li>
            Your wallet is yours alone. The REME tokens in it stay yours after you delete your
            account, and only your 12-word recovery code opens it: keep the code safe.
          </li>
          <li>CAPs not yet claimed as REME are lost.</li>
          <li>
            You can join again later with the same e-mail address, but the joining bonus is paid
            once per person: a new account gets no second bonus.
          </li>
          <li>
            Your profile, CAPs history and referral link are deleted. Members who joined through you
            keep their CAPs.
          </li>
        </ul>
      </div>
      <form onSubmit={ask} noValidate aria-label="Delete account" className={account.form}>
        <PasswordField
          label="Your password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
        />
        <FormMessage error={error} />
        <Button type="submit" className={`${styles.action} ${styles.danger}`} busy={busy}>
          Delete my account
        </Button>
      </form>
      <ConfirmDialog
        open={step === 'first'}
        title="Delete your account?"
        question={FIRST_QUESTION}
        confirmLabel="Yes, continue"
        onConfirm={() => setStep('second')}
        onCancel={() => setStep('form')}
      />
      <ConfirmDialog
        open={step === 'second'}
        title="Delete all your data?"
        question={SECOND_QUESTION}
        confirmLabel="Delete permanently"
        busy={busy}
        onConfirm={() => void remove()}
        onCancel={() => setStep('form')}
      />
    </CardSection>
  );
}
