import { BACKUP_CODE_PATTERN, deriveAuthSecret, passkeyCeremony, signInResponse } from '@crw/core';
import * as z from 'zod/mini';
import { apiFetch } from '../../../lib/api-client';
import { answerSignIn, signInBody } from '../../../lib/passkeys';

/** better-auth's email sign-in, with the derived auth secret in place of the password. When the
 * member turned on two-factor sign-in, the session comes only with their code (verifySignInCode). */
export async function signIn(
  email: string,
  password: string,
  derived?: string,
): Promise<{ needsCode: boolean }> {
  const normalized = email.trim().toLowerCase();
  const authSecret = derived ?? (await deriveAuthSecret(password, normalized));
  const answer = await apiFetch('/auth/sign-in/email', signInResponse, {
    method: 'POST',
    body: { email: normalized, password: authSecret, rememberMe: true },
  });
  return { needsCode: 'twoFactorRedirect' in answer };
}

/** The second step: a code from the authenticator app, or one of the backup codes. */
export async function verifySignInCode(code: string): Promise<void> {
  const trimmed = code.replace(/\s+/g, '');
  const backup = BACKUP_CODE_PATTERN.test(trimmed);
  await apiFetch(
    backup ? '/auth/two-factor/verify-backup-code' : '/auth/two-factor/verify-totp',
    z.object({ user: z.object({ id: z.string() }) }),
    {
      method: 'POST',
      body: { code: trimmed },
    },
  );
}

/** Signs in with a passkey (decision 0026): no e-mail, no password, and no code after it (a
 * passkey with the device's lock is two factors). `autofill`: the answer comes when the member picks
 * a passkey in the e-mail field's suggestions, not from a prompt. */
export async function signInWithPasskey(autofill = false): Promise<void> {
  const ceremony = await apiFetch('/api/passkeys/sign-in/options', passkeyCeremony, {
    method: 'POST',
    body: {},
  });
  const response = await answerSignIn(ceremony.options, autofill);
  await apiFetch('/auth/passkey/sign-in', z.object({ ok: z.literal(true) }), {
    method: 'POST',
    body: signInBody(ceremony.challengeId, response),
  });
}
