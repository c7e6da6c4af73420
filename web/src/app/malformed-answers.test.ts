// Every call the web app makes, against answers of the wrong shape: each fails as an ApiError with
// a plain sentence, never a schema's report ("Login failed: [ { "expected": …" was shown).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { changePassword, deleteMyAccount, downloadMyData } from '../features/account/api/lifecycle';
import {
  endOtherSessions,
  endSession,
  saveProfile,
  securityQuery,
  startTwoFactor,
  confirmTwoFactor,
  turnOffTwoFactor,
} from '../features/account/api/settings';
import {
  requestPasswordReset,
  resendConfirmation,
  setNewPassword,
} from '../features/auth/api/email-links';
import {
  processPendingReferral,
  rememberPendingReferral,
} from '../features/auth/api/pending-referral';
import { register } from '../features/auth/api/register';
import { signIn, verifySignInCode } from '../features/auth/api/sign-in';
import { checkEmailFree, referralCodeQuery } from '../features/auth/api/sign-up-checks';
import { signInError, signUpError } from '../features/auth/messages';
import { claimDataQuery } from '../features/claim/api/claim-data';
import { feeBalanceQuery } from '../features/claim/api/fee-balance';
import { requestSponsoredClaim, sponsorshipQuery } from '../features/claim/api/sponsorship';
import { createHandoff } from '../features/dashboard/api/community-app';
import { ApiError, INVALID_RESPONSE } from '../lib/api-client';
import { fetchGateChallenge } from '../lib/gate/solve-gate';
import { networkQuery } from '../lib/referrals';
import { meQuery, publicConfigQuery, saveWallet, walletChallenge } from '../lib/session';

afterEach(() => vi.unstubAllGlobals());

const ANSWERS: [string, () => Response][] = [
  [
    'an object of another shape',
    () => new Response(JSON.stringify({ unexpected: [1, { deep: null }] }), { status: 200 }),
  ],
  ['an empty body', () => new Response('', { status: 200 })],
  ['an HTML page', () => new Response('<html><body>Bad gateway</body></html>', { status: 200 })],
  ['an array', () => new Response('[{"expected":"string"}]', { status: 200 })],
  [
    'an error of another shape',
    () =>
      new Response(JSON.stringify({ error: { issues: [{ expected: 'string' }] } }), {
        status: 500,
      }),
  ],
];

const wallet = {
  address: '0x' + '1'.repeat(40),
  keystore: '{}',
  proof: { nonce: 'n'.repeat(32), signature: '0x' + '1'.repeat(130) },
};
const CALLS: [string, () => unknown][] = [
  ['sign-in', () => signIn('a@b.co', 'pw')],
  ['two-factor code', () => verifySignInCode('123456')],
  ['register', () => register({ email: 'a@b.co', password: 'pw', wallet }, 'x', {} as never)],
  ['e-mail check', () => checkEmailFree('a@b.co')],
  ['referral code check', () => referralCodeQuery('ABCD2345').queryFn!({} as never)],
  ['sign-up gate challenge', () => fetchGateChallenge('register')],
  ['resend confirmation', () => resendConfirmation('a@b.co', {} as never)],
  ['request reset', () => requestPasswordReset('a@b.co', {} as never)],
  ['set new password', () => setNewPassword('token', 'a@b.co', 'pw')],
  [
    'pending referral',
    async () => {
      rememberPendingReferral('ABCD2345', 'u1');
      await processPendingReferral('u1');
    },
  ],
  ['me', () => meQuery.queryFn!({} as never)],
  ['config', () => publicConfigQuery.queryFn!({} as never)],
  ['network', () => networkQuery.queryFn!({} as never)],
  ['save wallet', () => saveWallet(wallet)],
  ['wallet challenge', () => walletChallenge('register')],
  ['claim data', () => claimDataQuery.queryFn!({} as never)],
  ['fee balance', () => feeBalanceQuery.queryFn!({} as never)],
  ['sponsorship', () => sponsorshipQuery.queryFn!({} as never)],
  ['sponsored claim', () => requestSponsoredClaim({} as never)],
  ['community app', () => createHandoff()],
  ['security', () => securityQuery.queryFn!({} as never)],
  ['profile', () => saveProfile({ fullName: 'a', username: 'b' })],
  ['enable two-factor', () => startTwoFactor('a@b.co', 'pw')],
  ['confirm two-factor', () => confirmTwoFactor('123456')],
  ['disable two-factor', () => turnOffTwoFactor('a@b.co', 'pw', '123456')],
  ['end session', () => endSession('s1')],
  ['end other sessions', () => endOtherSessions()],
  [
    'change password',
    () =>
      changePassword(
        { email: 'a@b.co', keystore: '{}', currentPassword: 'a', newPassword: 'b' },
        () => undefined,
      ),
  ],
  ['export', () => downloadMyData()],
  ['delete account', () => deleteMyAccount('a@b.co', 'pw')],
];

describe('an answer of the wrong shape', () => {
  for (const [answerName, answer] of ANSWERS) {
    it.each(CALLS)(`%s: ${answerName} → a plain ApiError`, async (_name, call) => {
      vi.stubGlobal('fetch', async () => answer());
      let caught: unknown = null;
      try {
        await call();
      } catch (error) {
        caught = error;
      }
      // A call that swallows the failure on purpose (the pending referral) shows nothing at all.
      if (caught === null) return;
      expect(caught).toBeInstanceOf(ApiError);
      const message = (caught as ApiError).message;
      expect(message).toMatch(/^[A-Z][^[\]{}]*[.!]$/);
      expect(message).not.toMatch(/expected|issues|invalid_type|<html/i);
    });
  }

  it('is shown on sign-in as "Login failed - please check your credentials", and on sign-up as "no authentication data"', () => {
    const malformed = new ApiError(200, INVALID_RESPONSE, 'x');
    expect(signInError(malformed)).toBe('Login failed - please check your credentials');
    expect(signUpError(malformed)).toBe(
      'Account creation failed - no authentication data received',
    );
  });

  it('other sign-up failures: "Referral signup failed" through a referral link, and the final fallback', () => {
    const other = new ApiError(
      500,
      'internal_error',
      'Something went wrong on our side. Please try again.',
    );
    expect(signUpError(other, true)).toBe(
      'Referral signup failed: Something went wrong on our side. Please try again.',
    );
    expect(signUpError(other)).toBe(
      'Signup failed: Something went wrong on our side. Please try again.',
    );
    expect(signUpError(new Error(''))).toBe('Signup failed: please try again.');
  });
});
