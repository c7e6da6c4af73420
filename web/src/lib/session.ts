// The signed-in member as the server knows them, its local flags, and logout.
import {
  okResponse,
  publicConfigResponse,
  userDetailsResponse,
  walletChallengeResponse,
  type WalletProof,
  type WalletProofPurpose,
} from '@crw/core';
import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import * as z from 'zod/mini';
import { apiFetch } from './api-client';
import { notify } from '../ui/toaster';
import { announceSignedOut } from './auth-channel';
import { readStored, removeStored } from './storage';

let changedSinceRead = false;

/** The server said the member's data changed: the next read asks it to skip its copy. */
export function memberChanged(): void {
  changedSinceRead = true;
}

export const meQuery = queryOptions({
  queryKey: ['me'],
  queryFn: async () => {
    const fresh = changedSinceRead;
    changedSinceRead = false;
    // The details call carries the first-time-referral flag, and the welcome notice follows its
    // answer (docs/product.md, deviation 9).
    const firstTimeReferral = readStored('referralFlag') === 'true';
    return apiFetch(
      firstTimeReferral ? '/api/me?firstTimeReferral=true' : '/api/me',
      userDetailsResponse,
      { fresh },
    );
  },
  retry: false,
  staleTime: 5_000,
});

export const publicConfigQuery = queryOptions({
  queryKey: ['public-config'],
  queryFn: () => apiFetch('/api/config', publicConfigResponse),
  staleTime: Infinity,
});

const renewals = new Set<Promise<unknown>>();

/** Marks a call that replaces the session (better-auth renews it when two-factor sign-in is turned
 * on or off): the old session's "signed-out" event may arrive before the new cookie does, so the
 * event stream waits for these calls before asking whether this browser is still signed in. */
export function renewingSession<T>(call: Promise<T>): Promise<T> {
  renewals.add(call);
  const done = () => renewals.delete(call);
  call.then(done, done);
  return call;
}

export async function sessionRenewalsSettled(): Promise<void> {
  while (renewals.size > 0) await Promise.allSettled([...renewals]);
}

/** Set while this tab signs out on purpose (Logout, deleting the account): the "signed out" that
 * its own server call makes the event stream and the other tabs' channel say is not news here. */
let leaving = false;

/** This tab is about to end its own session (before the server call that ends it). */
export function beginLeaving(): void {
  leaving = true;
}

/** The server call failed: this tab stays, and a later "signed out" is news again. */
export function stopLeaving(): void {
  leaving = false;
}

export const isLeaving = (): boolean => leaving;

export interface LogoutOptions {
  /** The session already ended (another tab, another device, the account page): sign out here only. */
  ended?: boolean;
  /** Said to the member on the start page. */
  notice?: string;
}

/** Logout: clears the local keys, ends the server session (also when that call fails),
 * tells the member's other tabs (they sign out at once), forgets every cached answer and goes to
 * the start page. */
export function useLogout(): (options?: LogoutOptions) => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    async ({ ended = false, notice }: LogoutOptions = {}) => {
      leaving = true;
      try {
        for (const key of [
          'user',
          'allowed',
          'referralFlag',
          'rcbPreloadData',
          'lastDetails',
        ] as const)
          removeStored(key);
        if (!ended) {
          // The other tabs first: they leave at once, before the server's "signed out" reaches
          // them as news from another place.
          announceSignedOut();
          await apiFetch('/auth/sign-out', z.unknown(), { method: 'POST', body: {} }).catch(
            () => undefined,
          );
        }
        queryClient.clear();
        navigate('/', { replace: true });
        if (notice) notify.info(notice);
      } finally {
        leaving = false;
      }
    },
    [queryClient, navigate],
  );
}

export const saveWallet = (wallet: { address: string; keystore: string; proof: WalletProof }) =>
  apiFetch('/api/wallet', okResponse, { method: 'PUT', body: wallet });

/** A single-use challenge the wallet worker signs to show the server the member holds the key. */
export const walletChallenge = (purpose: WalletProofPurpose) =>
  apiFetch('/api/wallet/challenge', walletChallengeResponse, { method: 'POST', body: { purpose } });
