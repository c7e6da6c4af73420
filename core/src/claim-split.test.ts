import { describe, expect, it } from 'vitest';
import { claimSplit } from './claim-split';

const reme = (n: number) => BigInt(n) * 10n ** 18n;

describe('claimSplit (claim amounts)', () => {
  it('"when tokens_for_claiming is above 0 and no signup tokens are earned yet, the signup claim equals signup_tokens and the referral claim equals the rest"', () => {
    expect(
      claimSplit({ forClaiming: reme(350), signupTokens: reme(200), earnedSignupTokens: 0n }),
    ).toEqual({ signup: reme(200), referral: reme(150) });
  });

  it('"otherwise the referral claim equals all claimable tokens"', () => {
    expect(
      claimSplit({ forClaiming: reme(75), signupTokens: reme(200), earnedSignupTokens: reme(200) }),
    ).toEqual({ signup: 0n, referral: reme(75) });
    expect(
      claimSplit({ forClaiming: 0n, signupTokens: reme(200), earnedSignupTokens: 0n }),
    ).toEqual({ signup: 0n, referral: 0n });
  });
});
