// The pending referral in browser storage: kept at a referred sign-up, processed at the
// next sign-in of that member (the server's process_referral_enhanced is idempotent).
import {
  decidePendingReferral,
  parsePendingReferral,
  pendingReferralResponse,
  type PendingReferral,
} from '@crw/core';
import { apiFetch } from '../../../lib/api-client';
import { readStored, removeStored, writeStored } from '../../../lib/storage';

export function rememberPendingReferral(referralCode: string, newUserId: string): void {
  const entry: PendingReferral = {
    referralCode,
    newUserId,
    timestamp: Date.now(),
    processed: false,
  };
  writeStored('pendingReferral', JSON.stringify(entry));
}

export async function processPendingReferral(signedInUserId: string): Promise<void> {
  const entry = parsePendingReferral(readStored('pendingReferral'));
  if (!entry) return removeStored('pendingReferral');
  const decision = decidePendingReferral(entry, signedInUserId, Date.now());
  if (decision === 'delete') return removeStored('pendingReferral');
  if (decision !== 'process') return;
  try {
    await apiFetch('/api/referrals/pending', pendingReferralResponse, {
      method: 'POST',
      body: { referralCode: entry.referralCode },
    });
    writeStored('pendingReferral', JSON.stringify({ ...entry, processed: true }));
  } catch {
    // Kept unprocessed: the next sign-in tries again (the referral was also recorded at sign-up).
  }
}
