// Claim amounts: while the signup bonus has not been claimed, the first part of what is
// claimable is the signup claim and the rest the referral claim; afterwards it is all referral.

export interface ClaimSplitInput {
  forClaiming: bigint;
  signupTokens: bigint;
  /** Signup tokens already claimed. */
  earnedSignupTokens: bigint;
}

export function claimSplit({ forClaiming, signupTokens, earnedSignupTokens }: ClaimSplitInput): {
  signup: bigint;
  referral: bigint;
} {
  if (forClaiming > 0n && earnedSignupTokens === 0n) {
    const signup = signupTokens < forClaiming ? signupTokens : forClaiming;
    return { signup, referral: forClaiming - signup };
  }
  return { signup: 0n, referral: forClaiming };
}
