// The account page's security settings: profile, two-factor sign-in and the member's sessions.
import * as z from 'zod/mini';
import { plainText } from './common';

/** PUT /api/account/profile: the name the greetings use, and the username. */
export const profileRequest = z.object({
  fullName: plainText(100, { trim: true }),
  username: plainText(64, { trim: true, min: 1 }),
});
export type ProfileRequest = z.input<typeof profileRequest>;

/** One place the member is signed in. Never the session's token. */
export const memberSession = z.object({
  id: z.string(),
  /** "Chrome on Windows", from the browser's user agent. */
  device: z.string(),
  ipAddress: z.nullable(z.string()),
  signedInAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});
export type MemberSession = z.infer<typeof memberSession>;

/** GET /api/account/security */
export const securityResponse = z.object({
  twoFactorEnabled: z.boolean(),
  sessions: z.array(memberSession),
});

export const sessionIdParams = z.object({ id: plainText(64, { min: 1 }) });
export const signedOutResponse = z.object({ signedOut: z.number() });

/** A code from an authenticator app: six digits. */
export const TOTP_CODE_PATTERN = /^\d{6}$/;
/** What backup codes are made of: capitals and digits without the ones read as another
 * (no I, O, 0 or 1; lower case is read as upper case, so no l or o either). 32 characters. */
export const BACKUP_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** A backup code is eight of them, shown in two groups ("ABCD-EFGH"). */
export const BACKUP_CODE_LENGTH = 8;
/** A backup code as a member may type it: in any case, with the dash, a space or neither. Codes
 * made before the alphabet above (better-auth's own, "AbCdE-12345") are typed as shown. */
export const BACKUP_CODE_PATTERN =
  /^(?:[A-HJ-NP-Z2-9]{4}[-\s]?[A-HJ-NP-Z2-9]{4}|[A-Za-z0-9]{5}-[A-Za-z0-9]{5})$/i;
const GROUPED_BACKUP_CODE = /^([A-HJ-NP-Z2-9]{4})[-\s]?([A-HJ-NP-Z2-9]{4})$/i;

/** The code as it was made ("ABCD-EFGH"), which is what better-auth compares; an older code
 * (ten characters, case matters) is left as it is. */
export function canonicalBackupCode(typed: string): string {
  const code = typed.trim();
  const grouped = GROUPED_BACKUP_CODE.exec(code);
  return grouped ? `${grouped[1]}-${grouped[2]}`.toUpperCase() : code;
}

const secret = plainText(256, { min: 1 });
const totpCode = z.string().check(z.regex(TOTP_CODE_PATTERN, 'must be six digits'));
const backupCode = z.pipe(
  z.string().check(z.regex(BACKUP_CODE_PATTERN, 'must be a backup code')),
  z.transform(canonicalBackupCode),
);

/** POST /auth/two-factor/enable: the password (as the derived auth secret) starts enrolment. Strict:
 * better-auth also takes `method: "otp"` (on at once, with no authenticator) and `trustDevice`. */
export const twoFactorEnableRequest = z.strictObject({ password: secret });
export const twoFactorEnableResponse = z.object({
  totpURI: z.string(),
  backupCodes: z.array(z.string()),
});
/** POST /auth/two-factor/verify-totp: at sign-in, and to finish enrolment. */
export const verifyTotpRequest = z.strictObject({ code: totpCode });
/** POST /auth/two-factor/verify-backup-code: at sign-in, once per code. */
export const verifyBackupCodeRequest = z.strictObject({ code: backupCode });
/** POST /auth/two-factor/disable: the password and a code (authenticator or backup). */
export const twoFactorDisableRequest = z.strictObject({
  password: secret,
  code: z.union([totpCode, backupCode]),
});

/** What better-auth's sign-in answers: the member, or that a second factor is asked for. */
export const signInResponse = z.union([
  z.object({ twoFactorRedirect: z.literal(true) }),
  z.object({ user: z.object({ id: z.string() }) }),
]);
