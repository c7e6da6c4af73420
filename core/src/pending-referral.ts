// The pending referral (browser storage): written at a referred sign-up, processed at the
// next sign-in of that same member, then marked processed; entries older than 24 h are deleted.
import { PENDING_REFERRAL_EXPIRY_MS } from './constants';

export interface PendingReferral {
  referralCode: string;
  newUserId: string;
  timestamp: number;
  processed: boolean;
}

export function parsePendingReferral(raw: string | null): PendingReferral | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<PendingReferral>;
    if (
      typeof v.referralCode !== 'string' ||
      typeof v.newUserId !== 'string' ||
      typeof v.timestamp !== 'number'
    )
      return null;
    return {
      referralCode: v.referralCode,
      newUserId: v.newUserId,
      timestamp: v.timestamp,
      processed: v.processed === true,
    };
  } catch {
    return null;
  }
}

export type PendingDecision = 'delete' | 'process' | 'keep';

/** What the next sign-in does with the stored entry. */
export function decidePendingReferral(
  entry: PendingReferral,
  signedInUserId: string,
  now: number,
): PendingDecision {
  if (now - entry.timestamp > PENDING_REFERRAL_EXPIRY_MS) return 'delete';
  if (!entry.processed && entry.newUserId === signedInUserId) return 'process';
  return 'keep';
}
