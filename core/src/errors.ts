// Stable error codes of the API ({ code, message } bodies). Codes never change once published;
// messages are the texts a member sees (docs/product.md, "Messages").
export const errorMessages = {
  invalid_request: 'The request is not valid.',
  invalid_credentials: 'Invalid email or password. Please check your credentials.',
  email_not_confirmed: 'Please check your email and click the confirmation link before signing in.',
  email_taken: 'An account with this email already exists. Please sign in instead.',
  disposable_email:
    'Addresses from throwaway e-mail services cannot be used here. Please use an e-mail address you keep.',
  gate_failed: 'The security check did not finish. Please try again.',
  gate_expired: 'The security check ran out of time. Please try again.',
  gate_used: 'This security check was already used. Please try again.',
  invalid_keystore: 'Invalid Wallet',
  invalid_referral_code: 'Invalid referral code. Please check the code and try again.',
  referral_closed: 'A referral can only be added once, within 24 hours of joining.',
  wallet_mismatch: 'This wallet does not belong to your account.',
  invalid_wallet_proof: 'Your wallet could not be confirmed. Please try again.',
  wallet_taken: 'This wallet already belongs to another account.',
  invalid_token: 'This link is invalid or has expired. Please request a new one.',
  auth_failed: 'Authentication failed. Please try again.',
  wrong_password: 'Your current password is not correct.',
  unauthorized: 'User not authenticated',
  invalid_two_factor_code:
    'That code is not right. Check your authenticator app (or your backup code) and try again.',
  two_factor_expired: 'Signing in took too long. Please enter your e-mail and password again.',
  two_factor_locked: 'Too many wrong codes. Two-factor sign-in is locked for 15 minutes.',
  passkey_failed:
    'That passkey could not be used here. Try again, or sign in with your e-mail and password.',
  passkey_expired: 'The passkey request ran out of time. Please try again.',
  invalid_api_key: 'A valid operator API key is required.',
  forbidden: 'You are not allowed to do that.',
  not_operator: 'This page is for the community’s operators.',
  two_factor_required:
    'The operator console needs two-factor sign-in: turn it on from your account page. If it is on already, sign out and sign in again with your code.',
  already_confirmed: 'This member has already confirmed their e-mail address.',
  credit_in_published_round:
    'A credit of this joining is already in a round, and a round cannot take back what it pays.',
  conversion_closed:
    'Converting CAPs is switched off by the community for now. Your CAPs stay yours.',
  not_enough_caps:
    'You do not have that many care CAPs left to convert. Reload the page to see what you have.',
  not_found: 'Not found.',
  method_not_allowed: 'Method not allowed.',
  payload_too_large: 'The request is too large.',
  unsupported_media_type: 'Unsupported content type.',
  rate_limited: 'Too many attempts. Please wait a moment and try again.',
  conflict: 'That is already in progress. Please try again shortly.',
  idempotency_conflict: 'This idempotency key was already used for another member or amount.',
  chain_unavailable: 'The blockchain cannot be reached right now. Please try again shortly.',
  claim_failed: 'Claim failed!',
  invalid_claim_signature: 'Your claim could not be confirmed with your wallet. Please try again.',
  invalid_claim:
    'This claim does not match your tokens in the current round. Reload the page and try again.',
  claim_request_expired: 'This claim request has expired. Please try again.',
  stale_round: 'A new distribution round was published. Reload the page and claim again.',
  round_not_in_review:
    'This round is not in review any more: it pays now, or it was cancelled. Reload the page.',
  already_reported: 'You already told the community about this round. Thank you.',
  nothing_to_claim: 'There is nothing to claim: these tokens have already been claimed.',
  claim_in_progress: 'Your claim is already on its way.',
  sponsor_unavailable: 'The network fee cannot be paid for you right now.',
  invalid_client: 'The sister app must present its client secret.',
  invalid_handoff_code: 'This hand-off code is invalid, already used or expired.',
  invalid_unsubscribe_link:
    'This unsubscribe link is not valid. Your mail choices are on your account page.',
  unsubscribe_link_used:
    'This link was already used, or your choices changed since this mail was sent. Your mail choices are on your account page.',
  service_unavailable: 'The service is temporarily unavailable. Please try again shortly.',
  internal_error: 'Something went wrong on our side. Please try again.',
} as const;

export type ErrorCode = keyof typeof errorMessages;

export const errorCodes = Object.keys(errorMessages) as ErrorCode[];

export interface ApiErrorBody {
  code: ErrorCode;
  message: string;
}

export function errorBody(code: ErrorCode, message: string = errorMessages[code]): ApiErrorBody {
  return { code, message };
}
