// The signed-in member as the server knows them, the local flags of SPEC §4, and logout.
import { okResponse, publicConfigResponse, userDetailsResponse } from '@crw/core';
import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiFetch } from './api-client';
import { removeStored } from './storage';

export const meQuery = queryOptions({
  queryKey: ['me'],
  queryFn: () => apiFetch('/api/me', userDetailsResponse),
  retry: false,
  staleTime: 5_000,
});

export const publicConfigQuery = queryOptions({
  queryKey: ['public-config'],
  queryFn: () => apiFetch('/api/config', publicConfigResponse),
  staleTime: Infinity,
});

/** Clears the SPEC §4 keys and ends the server session (also when that call fails). */
export async function logout(): Promise<void> {
  for (const key of ['user', 'allowed', 'referralFlag'] as const) removeStored(key);
  await apiFetch('/auth/sign-out', z.unknown(), { method: 'POST', body: {} }).catch(() => undefined);
}

export const saveWallet = (wallet: { address: string; keystore: string }) =>
  apiFetch('/api/wallet', okResponse, { method: 'PUT', body: wallet });
