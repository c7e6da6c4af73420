// The member's figures as last read, kept so that a reload without a connection shows the last
// dashboard ("You're offline — figures from 14:02") instead of the sign-in form. Only what the
// screens show: the wallet's keystore is left out (nothing to sign with is kept), and logout
// forgets it with the other keys.
import { userDetailsResponse, type UserDetails } from '@crw/core';
import * as z from 'zod/mini';
import { readStored, writeStored } from './storage';

const stored = z.object({ savedAt: z.string(), details: userDetailsResponse });

export interface LastDetails {
  savedAt: string;
  details: UserDetails;
}

export function rememberDetails(details: UserDetails): void {
  const kept: LastDetails = {
    savedAt: new Date().toISOString(),
    details: { ...details, wallet: { ...details.wallet, keystore: '' } },
  };
  writeStored('lastDetails', JSON.stringify(kept));
}

export function lastDetails(): LastDetails | null {
  const raw = readStored('lastDetails');
  if (!raw) return null;
  try {
    const parsed = stored.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
