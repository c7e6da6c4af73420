// The texts for the auth screens (docs/product.md, "Messages"), chosen from the API's stable error codes.
import { ApiError, INVALID_RESPONSE } from '../../lib/api-client';
import { GATE_REFUSALS, GateUnavailableError } from '../../lib/gate/solve-gate';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function signInError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'invalid_credentials')
      return 'Invalid email or password. Please check your credentials.';
    if (error.code === 'email_not_confirmed')
      return 'Please check your email and click the confirmation link before signing in.';
    if (error.code === 'rate_limited') return error.message;
    // The sign-in answered, but without the member in it.
    if (error.code === INVALID_RESPONSE) return 'Login failed - please check your credentials';
  }
  return `Login failed: ${message(error)}`;
}

/** The one sign-up form's refusal; referral: the sign-up came through a referral link. */
export function signUpError(error: unknown, referral = false): string {
  if (error instanceof GateUnavailableError) return error.message;
  if (error instanceof ApiError) {
    // The registration answered, but without the account's data in it.
    if (error.code === INVALID_RESPONSE)
      return 'Account creation failed - no authentication data received';
    if (error.code === 'email_taken')
      return 'An account with this email already exists. Please try signing in instead.';
    if (
      error.code === 'rate_limited' ||
      error.code === 'invalid_referral_code' ||
      error.code === 'disposable_email' ||
      GATE_REFUSALS.has(error.code)
    )
      return error.message;
    if (error.status === 400 && error.message.includes('email'))
      return 'Please enter a valid email address.';
    if (error.message.includes('401'))
      return 'Authentication not configured. Please check the backend project settings.';
  }
  const said = message(error) || 'please try again.';
  return referral ? `Referral signup failed: ${said}` : `Signup failed: ${said}`;
}

/** The field a sign-up's refusal is about, when it is about one (marked on the form). */
export function signUpErrorField(error: unknown): 'email' | undefined {
  return error instanceof ApiError &&
    (error.code === 'email_taken' || error.code === 'disposable_email')
    ? 'email'
    : undefined;
}

export function otherError(error: unknown): string {
  if (error instanceof ApiError && error.code === 'rate_limited') return error.message;
  return message(error) || 'An error occurred';
}
