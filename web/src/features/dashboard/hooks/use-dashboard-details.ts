// The dashboard's details on mount, then every 10 s, on window focus, and when another tab
// updates the cached `user`; the cache holds only what the dashboard shows. A failure
// to load logs the member out (the member gate does that for every member page).
import { DASHBOARD_REFRESH_MS, STORAGE_KEYS, type UserDetails } from '@crw/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { rememberDetails } from '../../../lib/offline-details';
import { meQuery } from '../../../lib/session';
import { readStored, writeStored } from '../../../lib/storage';

/** The dashboard state: what the dashboard displays, nothing secret (no keystore). */
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

/** The preloaded community data: what the community pages show first, never a secret (the
 * wallet goes as its address only). */
function preloadData(details: UserDetails): Record<string, unknown> {
  return {
    userDetails: {
      id: details.id,
      email: details.email,
      username: details.username,
      full_name: details.fullName,
      wallet: { address: details.wallet.address },
    },
    userFullName: details.fullName,
    userUid: details.id,
    referralCode: details.referralCode,
    totalBalance: details.caps.total,
  };
}

export function useDashboardDetails() {
  const me = useQuery({
    ...meQuery,
    refetchInterval: DASHBOARD_REFRESH_MS,
    refetchOnWindowFocus: 'always',
  });
  const { refetch } = me;

  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === STORAGE_KEYS.user && event.newValue !== null) void refetch();
    };
    // TanStack Query refetches when the tab becomes visible; returning to a window whose tab stayed
    // visible (another window was in front) fires only `focus`.
    const onFocus = () => void refetch();
    window.addEventListener('storage', onStorage);
    window.addEventListener('focus', onFocus);
    return () => {
      window.removeEventListener('storage', onStorage);
      window.removeEventListener('focus', onFocus);
    };
  }, [refetch]);

  // Written only when it changed, so tabs never echo each other's updates back and forth.
  useEffect(() => {
    if (!me.data) return;
    const next = cachedUser(me.data);
    if (readStored('user') !== next) writeStored('user', next);
    // Kept for a reload without a connection (lib/offline-details.ts), never the keystore; not
    // after logout has begun (it removes `allowed` first).
    if (readStored('allowed') === 'true') rememberDetails(me.data);
    const preload = preloadData(me.data);
    const stored = readStored('rcbPreloadData');
    const { timestamp: _, ...previous } = stored
      ? (JSON.parse(stored) as Record<string, unknown>)
      : {};
    if (JSON.stringify(previous) !== JSON.stringify(preload))
      writeStored('rcbPreloadData', JSON.stringify({ ...preload, timestamp: Date.now() }));
  }, [me.data]);

  return me;
}
