// The signed-in member as the server knows them, the local flags of SPEC §4, and logout.
import { okResponse, publicConfigResponse, userDetailsResponse, walletChallengeResponse, type WalletProof, type WalletProofPurpose } from '@crw/core';
import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import * as z from 'zod/mini';
import { apiFetch } from './api-client';
import { removeStored } from './storage';

let changedSinceRead = false;

/** The server said the member's data changed: the next read asks it to skip its copy. */
export function memberChanged(): void {
  changedSinceRead = true;
}

export const meQuery = queryOptions({
  queryKey: ['me'],
  queryFn: () => {
    const fresh = changedSinceRead;
    changedSinceRead = false;
    return apiFetch('/api/me', userDetailsResponse, { fresh });
  },
  retry: false,
  staleTime: 5_000,
});

export const publicConfigQuery = queryOptions({
  queryKey: ['public-config'],
  queryFn: () => apiFetch('/api/config', publicConfigResponse),
  staleTime: Infinity,
});

/** SPEC §4 Logout: clears the local keys, ends the server session (also when that call fails),
 * forgets every cached answer and goes to the start page. */
export function useLogout(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    for (const key of ['user', 'allowed', 'referralFlag'] as const) removeStored(key);
    await apiFetch('/auth/sign-out', z.unknown(), { method: 'POST', body: {} }).catch(() => undefined);
    queryClient.clear();
    navigate('/', { replace: true });
  }, [queryClient, navigate]);
}

export const saveWallet = (wallet: { address: string; keystore: string; proof: WalletProof }) =>
  apiFetch('/api/wallet', okResponse, { method: 'PUT', body: wallet });

/** A single-use challenge the wallet worker signs to show the server the member holds the key. */
export const walletChallenge = (purpose: WalletProofPurpose) =>
  apiFetch('/api/wallet/challenge', walletChallengeResponse, { method: 'POST', body: { purpose } });
