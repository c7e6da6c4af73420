// Keeps a signed-in member's pages fresh: the server's event stream says "changed" when a credit,
// a care action or a new network member touches their data, and every query refetches (the
// member's details from the database itself, not a server process's copy of them). It says
// "signed-out" when the session the stream was opened with ended: if this browser's session is
// gone too (signed out elsewhere, revoked, the password changed), the page signs out at once; if
// it was only replaced (turning on two-factor sign-in renews it), the stream opens again. Another
// tab's Logout arrives even sooner, over the browser's own channel. When the browser reconnects
// by itself (the server process restarted, the network dropped), each "ready" after the first
// refetches: nothing said while the stream was down is missed.
import { userDetailsResponse } from '@crw/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError, apiFetch } from './api-client';
import { listenForSignOut } from './auth-channel';
import { readStored } from './storage';
import { isLeaving, memberChanged, sessionRenewalsSettled, type LogoutOptions } from './session';

const RECONNECT_MS = 1_000;

export const SIGNED_OUT_ELSEWHERE =
  'You were signed out of this device from another place. Sign in again to continue.';

export function useMemberEvents(
  enabled: boolean,
  logout: (options?: LogoutOptions) => Promise<void>,
): void {
  const queryClient = useQueryClient();
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    if (!enabled) return;
    return listenForSignOut(
      () => void logout({ ended: true, notice: 'You signed out in another tab.' }),
    );
  }, [enabled, logout]);

  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/events');
    const refresh = async () => {
      // A change told while this tab's session is being renewed (two-factor turned on or off is
      // itself a security event) is read with the new cookie, not the old one the server just ended.
      await sessionRenewalsSettled();
      memberChanged();
      // Every query: the figures, and what is keyed apart from them (the activity, ['activity']).
      void queryClient.invalidateQueries();
    };
    /** Is this browser still signed in? If not, sign out here; if so, listen again. */
    let retry: ReturnType<typeof setTimeout> | undefined;
    let closed = false;
    const recheck = async () => {
      source.close();
      try {
        await sessionRenewalsSettled();
        await apiFetch('/api/me', userDetailsResponse, { fresh: true });
        retry = setTimeout(() => setGeneration((g) => g + 1), RECONNECT_MS);
      } catch (e) {
        // Not when this tab is signing out itself, or this browser has already (a Logout here or
        // in another tab): the member hears of it once, in the words of what happened.
        const stillSignedIn = !closed && !isLeaving() && readStored('allowed') === 'true';
        if (e instanceof ApiError && e.status === 401 && stillSignedIn)
          await logout({ ended: true, notice: SIGNED_OUT_ELSEWHERE });
      }
    };
    source.addEventListener('changed', () => void refresh());
    let opened = false;
    source.addEventListener('ready', () => {
      if (opened) void refresh();
      opened = true;
    });
    source.addEventListener('signed-out', () => void recheck());
    // A stream refused when reconnecting (401) is closed for good by the browser.
    source.addEventListener('error', () => {
      if (source.readyState === EventSource.CLOSED) void recheck();
    });
    return () => {
      closed = true;
      clearTimeout(retry);
      source.close();
    };
  }, [enabled, queryClient, logout, generation]);
}
