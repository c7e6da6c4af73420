// Both sign-up forms: check the e-mail is free, make the wallet in the worker, register (with the
// sign-up gate's solution, solved meanwhile), then show the phrase once.
import { deriveAuthSecret } from '@crw/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { carryOver } from '../../../lib/carry-over';
import { walletChallenge } from '../../../lib/session';
import { removeStored } from '../../../lib/storage';
import { runWalletTask } from '../../../lib/wallet/wallet-client';
import { rememberPendingReferral } from '../api/pending-referral';
import { register, type RegisterInput } from '../api/register';
import { signIn } from '../api/sign-in';
import { checkEmailFree } from '../api/sign-up-checks';
import type { SignupGate } from './use-signup-gate';

export type CreateAccountInput = Omit<RegisterInput, 'wallet'>;

export function useCreateAccount(onError: (error: unknown) => void) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);

  async function createAccount(input: CreateAccountInput, gate: SignupGate) {
    setBusy(true);
    // The auth secret (PBKDF2, off the main thread) is derived while the e-mail is checked and the
    // worker makes the wallet, and once for both the registration and the sign-in after it.
    const secret = deriveAuthSecret(input.password, input.email.trim().toLowerCase());
    secret.catch(() => undefined); // its failure is reported where it is awaited
    // The gate's solution too (solved ahead, or solving now), so the registration need not wait.
    const solved = gate.take();
    solved.catch(() => undefined);
    try {
      // A taken e-mail is said now, before seconds of wallet building (the registration checks again).
      await checkEmailFree(input.email);
      setProgress(0);
      for (const key of ['user', 'allowed'] as const) removeStored(key);
      const challenge = await walletChallenge('register');
      const { wallet } = await runWalletTask(
        { kind: 'create', password: input.password, challenge },
        setProgress,
      );
      const authSecret = await secret;
      // A refused solution leaves the wallet proof unused, so the same wallet goes again.
      const { needsEmailConfirmation, userId } = await gate.send(
        (pass) =>
          register(
            {
              ...input,
              wallet: { address: wallet.address, keystore: wallet.keystore, proof: wallet.proof },
            },
            authSecret,
            pass,
          ),
        solved,
      );
      if (input.referralCode) rememberPendingReferral(input.referralCode, userId);
      // No confirmation needed: the member has a session from here on.
      if (!needsEmailConfirmation) await signIn(input.email, input.password, authSecret);
      carryOver.put('mnemonic', wallet.phrase);
      navigate('/mnemonic', {
        state: {
          email: input.email.trim().toLowerCase(),
          address: wallet.address,
          signedIn: !needsEmailConfirmation,
        },
      });
    } catch (error) {
      onError(error);
      setBusy(false);
      setProgress(null);
    }
  }

  return { createAccount, busy, progress };
}
