// Delete my account: what stays and what is lost first, with the member's own figures (REME to claim
// now, REME coming in the next payout, care CAPs not converted) and "Claim first" when there is
// something to claim; then the password and one specific confirmation — type DELETE — whose
// destructive button is never where the previous press was. The server deletes everything of the
// member and ends every session; this browser forgets the member and returns to the start page.
import { formatReme, type UserDetails } from '@crw/core';
import * as Dialog from '@radix-ui/react-dialog';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { beginLeaving, stopLeaving, useLogout } from '../../../lib/session';
import { Button } from '../../../ui/button';
import callout from '../../../ui/callout.module.css';
import { CardSection } from '../../../ui/card-section';
import dialog from '../../../ui/dialog.module.css';
import { FormMessage } from '../../../ui/form-message';
import forms from '../../../ui/forms.module.css';
import { PasswordField, TextField } from '../../../ui/text-field';
import { notify } from '../../../ui/toaster';
import { deleteMyAccount } from '../api/lifecycle';
import account from './account.module.css';
import styles from './account-lifecycle.module.css';

/** The word the member types to confirm. */
export const CONFIRM_WORD = 'DELETE';

/** What deleting now would give up, in the member's figures (empty when nothing). */
function losses(me: UserDetails): string[] {
  const lost: string[] = [];
  if (BigInt(me.tokens.forClaiming) > 0n)
    lost.push(`${formatReme(me.tokens.forClaiming)} REME you can claim now`);
  if (BigInt(me.tokens.incoming) > 0n)
    lost.push(`${formatReme(me.tokens.incoming)} REME coming in the next payout`);
  if (me.caps.convertible > 0)
    lost.push(`${me.caps.convertible.toLocaleString('en-GB')} care CAPs not converted`);
  return lost;
}

export function DeleteSection({ me }: { me: UserDetails }) {
  const logout = useLogout();
  const [password, setPassword] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toClaim = BigInt(me.tokens.forClaiming) > 0n;
  const lost = losses(me);

  function ask(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!password) return setError('Please enter your password to delete your account');
    setTyped('');
    setConfirming(true);
  }

  async function remove(event: FormEvent) {
    event.preventDefault();
    if (typed.trim() !== CONFIRM_WORD) return;
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
      setConfirming(false);
      setBusy(false);
    }
  }

  return (
    <CardSection titleId="delete-title" title="Delete account">
      {toClaim ? (
        <div className={callout.info} data-testid="claim-first">
          <p className={styles.intro}>
            You have {formatReme(me.tokens.forClaiming)} REME to claim. Claim them first: they go to
            your wallet, which stays yours after your account is gone. When your community pays the
            fee, claiming is free.
          </p>
          <Link
            to="/claim"
            state={{ fromDashboard: true }}
            className={`${forms.button} ${styles.action}`}
          >
            Claim first
          </Link>
        </div>
      ) : null}
      <div className={callout.warning}>
        <p className={styles.intro}>Before you go:</p>
        <ul className={styles.list}>
          <li>
            Your wallet is yours alone. The REME tokens in it stay yours after you delete your
            account, and only your 12-word recovery phrase opens it: keep it safe.
          </li>
          <li>
            {lost.length
              ? `You give up ${lost.join(', ')}.`
              : 'You have nothing waiting to be claimed or converted.'}
          </li>
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
      <Dialog.Root
        open={confirming}
        onOpenChange={(next) => (!next && !busy ? setConfirming(false) : undefined)}
      >
        <Dialog.Portal>
          <Dialog.Overlay className={dialog.overlay} />
          <Dialog.Content className={dialog.dialog} role="alertdialog">
            <Dialog.Title className={styles.dialogTitle}>
              Delete your account for good?
            </Dialog.Title>
            <Dialog.Description>
              {lost.length
                ? `You give up ${lost.join(', ')}. This cannot be undone.`
                : 'Your profile, CAPs history and referral link are deleted. This cannot be undone.'}
            </Dialog.Description>
            <form onSubmit={(e) => void remove(e)} noValidate className={account.stack}>
              <TextField
                label={`Type ${CONFIRM_WORD} to confirm`}
                value={typed}
                onChange={setTyped}
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
              />
              <div className={styles.dialogActions}>
                <Button
                  type="submit"
                  className={styles.dangerSolid}
                  busy={busy}
                  disabled={typed.trim() !== CONFIRM_WORD}
                >
                  Delete permanently
                </Button>
                <Button variant="secondary" onClick={() => setConfirming(false)} disabled={busy}>
                  Keep my account
                </Button>
              </div>
            </form>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </CardSection>
  );
}
