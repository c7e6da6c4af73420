// How a screen that signs with the wallet asks to open it: the password field, or, when the member
// set up a passkey to unlock their wallet, a line saying the passkey will be asked (the browser's
// prompt comes with the button) and a way back to the password. `error`, when given, is shown
// under the field (or the line); screens that show their problems elsewhere leave it out.
import { Fingerprint } from 'lucide-react';
import type { WalletUnlocker } from '../lib/wallet/passkey-unlock';
import { LinkButton } from './button';
import { FormMessage } from './form-message';
import styles from './wallet-unlock-field.module.css';
import { PasswordField } from './text-field';

export function WalletUnlockField({
  unlocker,
  disabled,
  error,
}: {
  unlocker: WalletUnlocker;
  disabled?: boolean;
  error?: string | null;
}) {
  if (unlocker.mode === 'passkey')
    return (
      <div className={styles.passkey}>
        <p className={styles.line}>
          <Fingerprint aria-hidden="true" size={20} className={styles.icon} />
          With your passkey: your device asks for your fingerprint, face or PIN.
        </p>
        <LinkButton type="button" onClick={unlocker.usePassword} disabled={disabled}>
          Use my password instead
        </LinkButton>
        {error !== undefined ? <FormMessage error={error} /> : null}
      </div>
    );
  return (
    <PasswordField
      label="Password"
      value={unlocker.password}
      onChange={unlocker.setPassword}
      autoComplete="current-password"
      required
      disabled={disabled}
      error={error}
    />
  );
}
