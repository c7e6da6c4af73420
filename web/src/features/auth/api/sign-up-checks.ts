// The checks a sign-up makes before the wallet is built, so a taken e-mail or a broken
// referral link is said in a moment, not after seconds of wallet building.
import { okResponse, referralCodeCheckResponse } from '@crw/core';
import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** Resolves when the e-mail can sign up; a confirmed account's e-mail fails as the registration
 * would (409 email_taken). */
export function checkEmailFree(email: string) {
  return apiFetch('/api/register/check', okResponse, {
    method: 'POST',
    body: { email: email.trim().toLowerCase() },
  });
}

/** Whether a referral link's code names a member, asked when the link is opened. */
export const referralCodeQuery = (code: string) =>
  queryOptions({
    queryKey: ['referral-code', code],
    queryFn: () =>
      apiFetch(`/api/referrals/codes/${encodeURIComponent(code)}`, referralCodeCheckResponse),
    retry: false,
    staleTime: Infinity,
  });
