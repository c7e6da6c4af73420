// Passkeys (decision 0026): sign in with the device's lock instead of the password, and, where the
// passkey can derive a key (WebAuthn PRF), unlock the wallet with it too. Always an extra way in:
// the password and the 12 words keep working. Adding one, removing one and letting one unlock the
// wallet ask for the password; renaming does not.
import type { PasskeyItem, UserDetails } from '@crw/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Fingerprint, KeyRound } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { useLocation } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { formatMoment } from '../../../lib/dates';
import { PasskeyCancelled, passkeysSupported, PrfUnavailable } from '../../../lib/passkeys';
import { unlockProblem, walletKeysQuery } from '../../../lib/wallet/passkey-unlock';
import { Button } from '../../../ui/button';
import { CardSection } from '../../../ui/card-section';
import { FormMessage } from '../../../ui/form-message';
import { SkeletonRows } from '../../../ui/skeleton';
import { PasswordField, TextField } from '../../../ui/text-field';
import {
  addPasskey,
  letPasskeyUnlockWallet,
  passkeysQuery,
  removePasskey,
  renamePasskey,
} from '../api/passkeys';
import styles from './account.module.css';
import { StepForm } from './step-form';

type Stage =
  | { at: 'idle' }
  | { at: 'add' }
  | { at: 'rename'; id: string }
  | { at: 'remove'; id: string }
  | { at: 'unlock'; id: string };

const NO_PRF =
  'This passkey cannot unlock your wallet in this browser, so your password still does that.';

function problemText(e: unknown, fallback: string): string {
  if (e instanceof PasskeyCancelled)
    return 'The passkey was not made: the request was closed or timed out. Try again when you are ready.';
  if (e instanceof PrfUnavailable) return NO_PRF;
  const unlock = unlockProblem(e);
  if (unlock) return unlock;
  if (e instanceof ApiError)
    return e.code === 'wrong_password' ? 'That password is not right.' : e.message;
  return fallback;
}

function whatItDoes(passkey: PasskeyItem): string {
  if (passkey.unlocksWallet) return 'Signs you in and unlocks your wallet';
  return passkey.prf ? 'Signs you in' : 'Signs you in · your password unlocks your wallet';
}

export function PasskeysSection({ me }: { me: UserDetails }) {
  const queryClient = useQueryClient();
  const supported = passkeysSupported();
  const passkeys = useQuery(passkeysQuery);
  const [stage, setStage] = useState<Stage>({ at: 'idle' });
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { hash } = useLocation();

  // Arriving from the dashboard's "Add a passkey" (/account#passkeys): this section, in sight and
  // focused (its title), once it has loaded.
  const loaded = passkeys.data !== undefined;
  useEffect(() => {
    if (hash !== '#passkeys' || !loaded) return;
    const title = document.getElementById('passkeys-title');
    if (!title) return;
    title.setAttribute('tabindex', '-1');
    title.scrollIntoView({ block: 'start' });
    title.focus({ preventScroll: true });
  }, [hash, loaded]);

  const to = (next: Stage, initialName = '') => {
    setStage(next);
    setPassword('');
    setName(initialName);
    setError(null);
    setSuccess(null);
  };

  async function run(work: () => Promise<string>, fallback: string) {
    setError(null);
    setSuccess(null);
    setBusy(true);
    try {
      const done = await work();
      setStage({ at: 'idle' });
      setPassword('');
      setSuccess(done);
    } catch (e) {
      setError(problemText(e, fallback));
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: passkeysQuery.queryKey });
      await queryClient.invalidateQueries({ queryKey: walletKeysQuery.queryKey });
    }
  }

  const needPassword = () => {
    if (password) return false;
    setError('Enter your password to continue.');
    return true;
  };

  const onAdd = (event: FormEvent) => {
    event.preventDefault();
    if (needPassword()) return;
    void run(async () => {
      const added = await addPasskey(me.email, password);
      if (!added.prf) return `Passkey added: it signs you in on ${added.name}. ${NO_PRF}`;
      try {
        await letPasskeyUnlockWallet(added, me.wallet, password);
      } catch (e) {
        return `Passkey added: it signs you in on ${added.name}. ${problemText(e, NO_PRF)}`;
      }
      return `Passkey added: it signs you in and unlocks your wallet on ${added.name}.`;
    }, 'The passkey could not be added. Please try again.');
  };

  const onUnlock = (passkey: PasskeyItem) => (event: FormEvent) => {
    event.preventDefault();
    if (needPassword()) return;
    void run(async () => {
      await letPasskeyUnlockWallet(passkey, me.wallet, password);
      return `“${passkey.name}” now unlocks your wallet.`;
    }, 'The passkey could not be set up to unlock your wallet. Please try again.');
  };

  const onRemove = (passkey: PasskeyItem) => (event: FormEvent) => {
    event.preventDefault();
    if (needPassword()) return;
    void run(async () => {
      await removePasskey(me.email, password, passkey.id);
      return `“${passkey.name}” was removed. It no longer signs you in or unlocks your wallet.`;
    }, 'The passkey could not be removed. Please try again.');
  };

  const onRename = (passkey: PasskeyItem) => (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setError('Give the passkey a name, such as “My phone”.');
    if (trimmed.length > 60) return setError('A name can be at most 60 characters.');
    void run(async () => {
      await renamePasskey(passkey.id, trimmed);
      return 'Passkey renamed.';
    }, 'The passkey could not be renamed. Please try again.');
  };

  const passwordField = (
    <PasswordField
      label="Your password"
      autoComplete="current-password"
      value={password}
      onChange={setPassword}
      autoFocus
      aria-invalid={error ? true : undefined}
    />
  );
  const list = passkeys.data?.passkeys ?? [];
  /** What every step's form shares: its problem, whether it is working, and Cancel. */
  const step = { error, busy, onCancel: () => to({ at: 'idle' }) };

  return (
    <CardSection
      titleId="passkeys-title"
      title={
        <>
          Passkeys{' '}
          {list.length > 0 ? (
            <span className={styles.statusOn}>
              <Fingerprint aria-hidden="true" size={14} /> {list.length}
            </span>
          ) : passkeys.data ? (
            <span className={styles.status}>None</span>
          ) : null}
        </>
      }
    >
      <p className={styles.lead}>
        Sign in, and unlock your wallet to claim, with your phone’s or computer’s lock (fingerprint,
        face or PIN) instead of typing your password. Your password and your 12 words always keep
        working.
      </p>
      {!supported ? (
        // Information, not a fault: no alert (a page's alerts are for what went wrong).
        <p className={styles.hint}>
          Passkeys cannot be used in this browser or at this address. Your password signs you in
          here.
        </p>
      ) : null}
      {passkeys.isPending ? <SkeletonRows label="Loading your passkeys…" /> : null}
      {passkeys.isError ? (
        <FormMessage error="Your passkeys could not be loaded. Please reload the page." />
      ) : null}
      {list.length > 0 ? (
        <ul className={styles.sessions} aria-label="Your passkeys">
          {list.map((passkey) => (
            <li key={passkey.id} className={styles.passkey}>
              <div className={styles.passkeyHead}>
                <div>
                  <span className={styles.sessionName}>
                    <KeyRound aria-hidden="true" size={18} />
                    {passkey.name}
                  </span>
                  <p className={styles.sessionMeta}>
                    Added {formatMoment(passkey.createdAt)}
                    {passkey.lastUsedAt
                      ? ` · last used ${formatMoment(passkey.lastUsedAt)}`
                      : ' · not used yet'}
                  </p>
                  <p className={styles.sessionMeta}>{whatItDoes(passkey)}</p>
                </div>
                {stage.at === 'idle' ? (
                  <div className={styles.actionsRow}>
                    {passkey.prf && !passkey.unlocksWallet && supported ? (
                      <Button
                        variant="secondary"
                        className={styles.action}
                        onClick={() => to({ at: 'unlock', id: passkey.id })}
                      >
                        Unlock wallet with it
                      </Button>
                    ) : null}
                    <Button
                      variant="secondary"
                      className={styles.action}
                      onClick={() => to({ at: 'rename', id: passkey.id }, passkey.name)}
                      aria-label={`Rename ${passkey.name}`}
                    >
                      Rename
                    </Button>
                    <Button
                      variant="secondary"
                      className={styles.action}
                      onClick={() => to({ at: 'remove', id: passkey.id })}
                      aria-label={`Remove ${passkey.name}`}
                    >
                      Remove
                    </Button>
                  </div>
                ) : null}
              </div>
              {stage.at === 'rename' && stage.id === passkey.id ? (
                <StepForm onSubmit={onRename(passkey)} submitLabel="Save name" {...step}>
                  <TextField
                    label="Passkey name"
                    value={name}
                    onChange={setName}
                    maxLength={60}
                    autoFocus
                  />
                </StepForm>
              ) : null}
              {stage.at === 'remove' && stage.id === passkey.id ? (
                <StepForm onSubmit={onRemove(passkey)} submitLabel="Remove passkey" {...step}>
                  <p className={styles.hint}>
                    Removing it here stops it signing in. If the device is lost, also sign it out
                    under “Where you’re signed in”; you may remove the passkey from the device’s own
                    list too (Settings → Passwords).
                  </p>
                  {passwordField}
                </StepForm>
              ) : null}
              {stage.at === 'unlock' && stage.id === passkey.id ? (
                <StepForm onSubmit={onUnlock(passkey)} submitLabel="Continue" {...step}>
                  <p className={styles.hint}>
                    Your password opens your wallet here once; your passkey then keeps its own
                    locked copy of the wallet’s key, which only it can open.
                  </p>
                  {passwordField}
                </StepForm>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      <FormMessage success={success} />
      {stage.at === 'add' ? (
        <StepForm onSubmit={onAdd} submitLabel="Continue" {...step}>
          <p className={styles.hint}>
            After your password, your browser asks for your fingerprint, face or PIN (once to make
            the passkey, once more to let it unlock your wallet).
          </p>
          {passwordField}
        </StepForm>
      ) : null}
      {stage.at === 'idle' && supported && passkeys.data ? (
        <Button
          variant={list.length > 0 ? 'secondary' : 'primary'}
          className={styles.action}
          onClick={() => to({ at: 'add' })}
        >
          <Fingerprint aria-hidden="true" size={18} />
          Add a passkey
        </Button>
      ) : null}
      {stage.at === 'idle' && error ? <FormMessage error={error} /> : null}
    </CardSection>
  );
}
