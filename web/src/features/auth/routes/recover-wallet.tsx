// Wallet recovery: after a password reset the keystore still opens only with the
// old password; unlock it with that or with the 12 words, and re-encrypt it with the new one.
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { carryOver } from '../../../lib/carry-over';
import { meQuery, saveWallet, useLogout, walletChallenge } from '../../../lib/session';
import { writeStored } from '../../../lib/storage';
import { runWalletTask, WalletTaskError } from '../../../lib/wallet/wallet-client';
import { unlockProblem, useWalletUnlock } from '../../../lib/wallet/passkey-unlock';
import { Button, LinkButton } from '../../../ui/button';
import { FormMessage, useForm, WorkProgress } from '../../../ui/form-message';
import { PageLoading } from '../../../ui/page-loading';
import { PasswordField, PhraseField } from '../../../ui/text-field';
import { AuthCard } from '../components/auth-card';
import styles from '../components/auth.module.css';

type Method = 'password' | 'mnemonic' | 'passkey';

/** What went wrong, in plain words (the original said "Invalid mnemonic provided"). */
const RECOVERY_PROBLEMS = {
  invalid_password: 'That is not your old password.',
  invalid_mnemonic: 'These are not 12 recovery words. Check the spelling of each word.',
  wrong_wallet: "These words don't match this wallet. Check each word and their order.",
} as const;

export function Component() {
  const [newPassword] = useState(() => carryOver.peek('recoveryPassword'));
  const me = useQuery(meQuery);
  const navigate = useNavigate();
  const logout = useLogout();
  // The 12 words first: a member who reset their password most often no longer knows the old one.
  const [method, setMethod] = useState<Method>('mnemonic');
  const { values, set, field, setProblem, formError } = useForm({ secret: '' });
  const { secret } = values;
  const [progress, setProgress] = useState<number | null>(null);
  // A passkey that holds a copy of the wallet's key opens it as well (decision 0026).
  const unlocker = useWalletUnlock(me.data?.wallet);
  const withPasskey = unlocker.mode === 'passkey';

  if (!newPassword || me.isError) return <Navigate replace to="/" />;
  if (!me.data) return <PageLoading />;
  const wallet = me.data.wallet;

  async function recover(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    setProgress(0);
    try {
      const challenge = await walletChallenge('save-wallet');
      const result =
        method === 'passkey'
          ? await runWalletTask(
              {
                kind: 'relock',
                unlock: await unlocker.unlock(),
                newPassword: newPassword!,
                challenge,
              },
              setProgress,
            )
          : method === 'password'
            ? await runWalletTask(
                {
                  kind: 'reencrypt',
                  keystore: wallet.keystore,
                  oldPassword: secret,
                  newPassword: newPassword!,
                  challenge,
                },
                setProgress,
              )
            : await runWalletTask(
                {
                  kind: 'restore',
                  phrase: secret,
                  expectedAddress: wallet.address,
                  newPassword: newPassword!,
                  challenge,
                },
                setProgress,
              );
      await saveWallet(result.wallet);
      carryOver.clear('recoveryPassword');
      writeStored('allowed', 'true');
      navigate('/dashboard', { replace: true });
    } catch (e) {
      setProgress(null);
      const passkeyProblem = method === 'passkey' ? unlockProblem(e) : null;
      if (passkeyProblem) setProblem({ message: passkeyProblem });
      else if (
        e instanceof WalletTaskError &&
        e.reason !== 'error' &&
        e.reason !== 'passkey_unlock_failed'
      )
        setProblem({ field: 'secret', message: RECOVERY_PROBLEMS[e.reason] });
      else setProblem({ message: e instanceof Error ? e.message : String(e) });
    }
  }

  return (
    <AuthCard
      title="Recover your wallet"
      subtitle={`Your password changed, so unlock your wallet once with your 12 recovery words${withPasskey ? ', your passkey' : ''} or your old password.`}
    >
      <form onSubmit={(e) => void recover(e)} noValidate>
        <fieldset className={styles.choices}>
          <legend className={styles.subtitle}>Recover with</legend>
          {(
            [
              ['mnemonic', '12-word recovery phrase'],
              ['password', 'Old password'],
              ...(withPasskey ? ([['passkey', 'Your passkey']] as const) : []),
            ] as const
          ).map(([value, label]) => (
            <label key={value}>
              <input
                type="radio"
                name="method"
                value={value}
                checked={method === value}
                onChange={() => {
                  setMethod(value);
                  set('secret')('');
                  setProblem(null);
                }}
              />{' '}
              {label}
            </label>
          ))}
        </fieldset>
        {method === 'passkey' ? (
          <p className={styles.subtitle}>
            Your passkey holds its own locked copy of your wallet’s key: your device asks for your
            fingerprint, face or PIN.
          </p>
        ) : method === 'password' ? (
          <PasswordField label="Your old password" autoComplete="off" {...field('secret')} />
        ) : (
          <PhraseField label="Your 12 words" {...field('secret')} />
        )}
        <FormMessage error={formError} />
        {progress !== null ? (
          <WorkProgress label="Securing your wallet with your new password…" fraction={progress} />
        ) : null}
        <Button
          type="submit"
          busy={progress !== null}
          disabled={method !== 'passkey' && !secret.trim()}
        >
          Recover
        </Button>
      </form>
      <p className={styles.center}>
        {/* A way out: the wallet stays locked with the old password until the member comes back. */}
        Not now? <LinkButton onClick={() => void logout()}>Sign out</LinkButton>
      </p>
    </AuthCard>
  );
}
