// Opening the wallet for one task with a passkey instead of the password, where the member made a
// copy of the wallet's key for one of their passkeys (docs/decisions/0026-passkeys.md): the claim,
// the recovery phrase. Without a copy, or in a browser without passkeys, the password it is.
import { walletKeysResponse, type UserDetails } from '@crw/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { apiFetch } from '../api-client';
import { PasskeyCancelled, passkeyPrf, passkeysSupported, PrfUnavailable } from '../passkeys';
import { WalletTaskError } from './wallet-client';
import type { WalletUnlock } from './wallet-protocol';

export const walletKeysQuery = queryOptions({
  queryKey: ['account', 'passkeys', 'wallet-keys'],
  queryFn: () => apiFetch('/api/account/passkeys/wallet-keys', walletKeysResponse),
  retry: false,
});

/** What went wrong opening the wallet, in plain words; null when it is not about the unlock. */
export function unlockProblem(error: unknown): string | null {
  if (error instanceof PasskeyCancelled)
    return 'Your passkey was not used. Try again, or use your password instead.';
  if (error instanceof PrfUnavailable)
    return 'This passkey cannot unlock your wallet in this browser. Use your password instead.';
  if (error instanceof WalletTaskError) {
    if (error.reason === 'invalid_password') return 'That password is not right.';
    if (error.reason === 'passkey_unlock_failed' || error.reason === 'wrong_wallet')
      return 'Your passkey did not open your wallet. Use your password instead, then set the passkey up again on your account page.';
  }
  return null;
}

export interface WalletUnlocker {
  /** How the wallet is opened on this screen. */
  mode: 'passkey' | 'password';
  /** Whether the screen knows yet (the copies are being read). */
  pending: boolean;
  password: string;
  setPassword: (password: string) => void;
  /** The member prefers the password (or the passkey could not do it). */
  usePassword: () => void;
  /** Something to open the wallet with is there: a passkey, or a typed password. */
  ready: boolean;
  /** Asks the passkey (the browser's prompt) or takes the password: what the worker opens with. */
  unlock: () => Promise<WalletUnlock>;
}

/** `wallet`: the member's, once /api/me has answered (a screen calls hooks before it has). */
export function useWalletUnlock(wallet: UserDetails['wallet'] | undefined): WalletUnlocker {
  const copies = useQuery({ ...walletKeysQuery, enabled: passkeysSupported() });
  const [passwordChosen, setPasswordChosen] = useState(false);
  const [password, setPassword] = useState('');
  const keys = copies.data?.keys ?? [];
  const mode = !passwordChosen && keys.length > 0 ? 'passkey' : 'password';
  return {
    mode,
    pending: passkeysSupported() && copies.isPending,
    password,
    setPassword,
    usePassword: () => setPasswordChosen(true),
    ready: mode === 'passkey' || password.length > 0,
    async unlock() {
      if (!wallet) throw new Error('Your wallet is not loaded yet.');
      if (mode === 'password') return { with: 'password', keystore: wallet.keystore, password };
      try {
        const { credentialId, prfOutput } = await passkeyPrf(keys);
        const sealed = keys.find((k) => k.credentialId === credentialId);
        if (!sealed) throw new PrfUnavailable('That passkey holds no copy of your wallet key.');
        return { with: 'passkey', sealed, prfOutput, address: wallet.address };
      } catch (error) {
        if (error instanceof PrfUnavailable) setPasswordChosen(true);
        throw error;
      }
    },
  };
}
