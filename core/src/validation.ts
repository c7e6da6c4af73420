// SPEC §5's form rules. Each returns the one message to show (checked in the SPEC's order), or null.
import { PASSWORD_MIN_LENGTH_AUTH, PASSWORD_MIN_LENGTH_REGISTER } from './constants';

export const messages = {
  emailRequired: 'Email address is required',
  passwordRequired: 'Password is required',
  invalidEmail: 'Please enter a valid email address',
  authPasswordTooShort: 'Password must be at least 6 characters long',
  passwordsDoNotMatch: 'Passwords do not match',
  registerPasswordTooShort: 'Password minimum: At least 8 characters',
  registerPasswordsDiffer: "Passwords don't match",
  fillAllFields: 'Please fill in all required fields',
  resendEmailRequired: 'Email address is required to resend confirmation',
  mnemonicMismatch: 'Entered mnemonic mismatch the original one',
  currentPasswordRequired: 'Please enter your current password',
  newPasswordSameAsCurrent: 'The new password must differ from your current one',
} as const;

export function validateSignIn(v: { email: string; password: string }): string | null {
  if (!v.email.trim()) return messages.emailRequired;
  if (!v.password) return messages.passwordRequired;
  return null;
}

export function validateAuthSignUp(v: { email: string; password: string; confirmPassword: string }): string | null {
  const email = v.email.trim();
  if (!email) return messages.emailRequired;
  if (!email.includes('@') || !email.includes('.')) return messages.invalidEmail;
  if (v.password.length < PASSWORD_MIN_LENGTH_AUTH) return messages.authPasswordTooShort;
  if (v.password !== v.confirmPassword) return messages.passwordsDoNotMatch;
  return null;
}

export function validateRegistration(v: { firstName: string; lastName: string; email: string; password: string; confirmPassword: string }): string | null {
  if (v.password.length < PASSWORD_MIN_LENGTH_REGISTER) return messages.registerPasswordTooShort;
  if (v.password !== v.confirmPassword) return messages.registerPasswordsDiffer;
  if (!v.firstName.trim() || !v.lastName.trim() || !v.email.trim()) return messages.fillAllFields;
  return null;
}

/** Changing the password on the account page: the new one follows /register's rules. */
export function validatePasswordChange(v: { currentPassword: string; newPassword: string; confirmPassword: string }): string | null {
  if (!v.currentPassword) return messages.currentPasswordRequired;
  if (v.newPassword.length < PASSWORD_MIN_LENGTH_REGISTER) return messages.registerPasswordTooShort;
  if (v.newPassword !== v.confirmPassword) return messages.registerPasswordsDiffer;
  if (v.newPassword === v.currentPassword) return messages.newPasswordSameAsCurrent;
  return null;
}

export function validateResend(email: string): string | null {
  return email.trim() ? null : messages.resendEmailRequired;
}

/** The typed code must equal the phrase exactly. */
export function validateMnemonicConfirmation(typed: string, phrase: string): string | null {
  return typed === phrase ? null : messages.mnemonicMismatch;
}

/** Username is optional and defaults to the part of the e-mail before the @. */
/** The name a greeting uses: the member's full name, else their username, else their e-mail's
 * local part — never a placeholder. */
export function greetingName(member: { fullName: string; username: string; email: string }): string {
  return member.fullName.trim() || member.username.trim() || member.email.split('@')[0] || member.email;
}

export function defaultUsername(username: string, email: string): string {
  return username.trim() || email.trim().split('@')[0] || email.trim();
}
