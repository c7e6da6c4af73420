// The member's figures as last read, kept so that a reload without a connection shows the last
// dashboard ("You're offline — figures from 14:02") instead of the sign-in form. Only what the
// screens show: the wallet's keystore is left out (nothing to sign with is kept), and logout
// forgets it with the other keys.
import { userDetailsResponse, type UserDetails } from '@crw/core';
import * as z from 'zod/mini';
import { readStored, writeStored } from './storage';

const stored = z.object({ savedAt: z.string(), details: userDetailsResponse });

export interface LastDetails {
  /** When these figures were first read (they held from then until the last read). */
  savedAt: string;
  details: UserDetails;
}

/** Keeps the details as read, written only when they differ from those kept (the dashboard reads
 * them every 10 s). */
export function rememberDetails(details: UserDetails): void {
  const kept = { ...details, wallet: { ...details.wallet, keystore: '' } };
  if (keptDetailsText() === JSON.stringify(kept)) return;
  const last: LastDetails = { savedAt: new Date().toISOString(), details: kept };
  writeStored('lastDetails', JSON.stringify(last));
}

/** The kept details as written, without parsing them against the schema. */
function keptDetailsText(): string | null {
  const raw = readStored('lastDetails');
  if (!raw) return null;
  try {
    return JSON.stringify((JSON.parse(raw) as { details?: unknown }).details);
  } catch {
    return null;
  }
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
