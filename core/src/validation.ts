// The form rules. Each returns the one problem to show (checked in a fixed order) with
// the field it belongs to, so the form can mark that field; or null.
import { MNEMONIC_WORDS, PASSWORD_MIN_LENGTH } from './constants';

export const messages = {
  emailRequired: 'Email address is required',
  passwordRequired: 'Password is required',
  invalidEmail: 'Please enter a valid email address',
  // The one sentence for the 8 characters every new password needs (sign-up, reset, change).
  authPasswordTooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters long`,
  passwordsDoNotMatch: 'Passwords do not match',
  resendEmailRequired: 'Email address is required to resend confirmation',
  phraseEmpty: `Type your ${MNEMONIC_WORDS}-word recovery code to confirm it.`,
  currentPasswordRequired: 'Please enter your current password',
  newPasswordSameAsCurrent: 'The new password must differ from your current one',
} as const;

/** What is wrong, and with which field of the form. */
export interface FormProblem<Field extends string> {
  field: Field;
  message: string;
}

const problem = <Field extends string>(field: Field, message: string): FormProblem<Field> => ({
  field,
  message,
});

export function validateSignIn(v: {
  email: string;
  password: string;
}): FormProblem<'email' | 'password'> | null {
  if (!v.email.trim()) return problem('email', messages.emailRequired);
  if (!v.password) return problem('password', messages.passwordRequired);
  return null;
}

/** The sign-up card, and the new password of a reset (which has no e-mail field to get wrong). */
export function validateAuthSignUp(v: {
  email: string;
  password: string;
  confirmPassword: string;
}): FormProblem<'email' | 'password' | 'confirmPassword'> | null {
  const email = v.email.trim();
  if (!email) return problem('email', messages.emailRequired);
  if (!email.includes('@') || !email.includes('.')) return problem('email', messages.invalidEmail);
  if (v.password.length < PASSWORD_MIN_LENGTH)
    return problem('password', messages.authPasswordTooShort);
  if (v.password !== v.confirmPassword)
    return problem('confirmPassword', messages.passwordsDoNotMatch);
  return null;
}

/** The one sign-up form (the auth card's, /register's and a referral link's): every problem at
 * once, each with its field, so a member fixes them in one go. Names are optional. */
export function validateSignUp(v: {
  email: string;
  password: string;
  confirmPassword: string;
}): FormProblem<'email' | 'password' | 'confirmPassword'>[] {
  const email = v.email.trim();
  const problems: FormProblem<'email' | 'password' | 'confirmPassword'>[] = [];
  if (!email) problems.push(problem('email', messages.emailRequired));
  else if (!email.includes('@') || !email.includes('.'))
    problems.push(problem('email', messages.invalidEmail));
  if (v.password.length < PASSWORD_MIN_LENGTH)
    problems.push(problem('password', messages.authPasswordTooShort));
  if (v.password !== v.confirmPassword)
    problems.push(problem('confirmPassword', messages.passwordsDoNotMatch));
  return problems;
}

/** Changing the password on the account page: the new one follows the sign-up form's rules. */
export function validatePasswordChange(v: {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}): FormProblem<'currentPassword' | 'newPassword' | 'confirmPassword'> | null {
  if (!v.currentPassword) return problem('currentPassword', messages.currentPasswordRequired);
  if (v.newPassword.length < PASSWORD_MIN_LENGTH)
    return problem('newPassword', messages.authPasswordTooShort);
  if (v.newPassword !== v.confirmPassword)
    return problem('confirmPassword', messages.passwordsDoNotMatch);
  if (v.newPassword === v.currentPassword)
    return problem('newPassword', messages.newPasswordSameAsCurrent);
  return null;
}

export function validateResend(email: string): FormProblem<'email'> | null {
  return email.trim() ? null : problem('email', messages.resendEmailRequired);
}

/**
 * The typed code must be the phrase's words in order. Capitals, extra spaces and line breaks do not
 * count (the words are lower-case); the first word that differs is named, so the member knows
 * where to look (the original's "Entered mnemonic mismatch the original one" did not say).
 */
export function validateMnemonicConfirmation(
  typed: string,
  phrase: string,
): FormProblem<'phrase'> | null {
  const words = typed.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const expected = phrase.split(' ');
  if (words.length === 0) return problem('phrase', messages.phraseEmpty);
  const wrong = expected.findIndex((word, i) => words[i] !== undefined && words[i] !== word);
  if (wrong >= 0) return problem('phrase', `Word ${wrong + 1} does not match your recovery code.`);
  if (words.length < expected.length)
    return problem(
      'phrase',
      `Word ${words.length + 1} is missing: your recovery code has ${expected.length} words.`,
    );
  if (words.length > expected.length)
    return problem(
      'phrase',
      `Your recovery code has ${expected.length} words; you typed ${words.length}.`,
    );
  return null;
}

/** Username is optional and defaults to the part of the e-mail before the @. */
/** The name a greeting uses: the member's full name, else their username, else their e-mail's
 * local part — never a placeholder. */
export function greetingName(member: {
  fullName: string;
  username: string;
  email: string;
}): string {
  return (
    member.fullName.trim() || member.username.trim() || member.email.split('@')[0] || member.email
  );
}

export function defaultUsername(username: string, email: string): string {
  return username.trim() || email.trim().split('@')[0] || email.trim();
}
