// The better-auth endpoints the app calls (mounted under /auth), with the shapes we let through:
// checked here before better-auth sees them, so malformed input is a 400, never a failure inside.
import * as z from 'zod/mini';
import { emailField } from './account';
import { plainText } from './common';
import { gateField } from './signup-gate';

/** A path on this site (`/…`, not `//host`): where a mailed link may send the member afterwards. */
export const localPath = z.pipe(
  plainText(2048),
  z
    .string()
    .check(
      z.refine(
        (p: string) => p.startsWith('/') && !p.startsWith('//') && !p.includes('\\'),
        'must be a path on this site',
      ),
    ),
);
const secret = plainText(256, { min: 1 });
const token = plainText(4096, { min: 1 });

export const signInRequest = z.object({
  email: emailField,
  password: secret,
  rememberMe: z.optional(z.boolean()),
  callbackURL: z.optional(localPath),
});
/** The reset request and the resend carry the sign-up gate's solution for `reset` and `resend`
 * (signup-gate.ts); the server takes it off before better-auth sees the body. */
export const requestPasswordResetRequest = z.object({
  email: emailField,
  redirectTo: z.optional(localPath),
  gate: gateField,
});
export const sendVerificationEmailRequest = z.object({
  email: emailField,
  callbackURL: z.optional(localPath),
  gate: gateField,
});
export const resetPasswordRequest = z.object({ token, newPassword: secret });
export const verifyEmailQuery = z.object({ token, callbackURL: z.optional(localPath) });
export const resetLinkParams = z.object({ token: plainText(256, { min: 1 }) });
export const resetLinkQuery = z.object({ callbackURL: z.optional(localPath) });
