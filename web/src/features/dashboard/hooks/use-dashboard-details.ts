// SPEC §4 Dashboard: details on mount, then every 10 s, on window focus, and when another tab
// updates the cached `user`; the cache holds only what the dashboard shows (DESIGN §3). A failure
// to load logs the member out (the member gate does that for every member page).
import { DASHBOARD_REFRESH_MS, STORAGE_KEYS, type UserDetails } from '@crw/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { meQuery } from '../../../lib/session';
import { readStored, writeStored } from '../../../lib/storage';

/** SPEC §3 dashboard state: what the dashboard displays, nothing secret (no keystore). */
function cachedUser(details: UserDetails): string {
  return JSON.stringify({
    email: details.email,
    fullName: details.fullName,
    address: details.wallet.address,
    referralCode: details.referralLink,
    caps: details.caps,
    tokensBalance: { reme: details.tokens.remeHeld },
    claimTokens: details.tokens.claimSplit,
    tokensForClaiming: details.tokens.forClaiming,
  });
}

export function useDashboardDetails() {
  const me = useQuery({ ...meQuery, refetchInterval: DASHBOARD_REFRESH_MS, refetchOnWindowFocus: 'always' });
  const { refetch } = me;

  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === STORAGE_KEYS.user && event.newValue !== null) void refetch();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [refetch]);

  // Written only when it changed, so tabs never echo each other's updates back and forth.
  useEffect(() => {
    if (!me.data) return;
    const next = cachedUser(me.data);
    if (readStored('user') !== next) writeStored('user', next);
  }, [me.data]);

  return me;
}
