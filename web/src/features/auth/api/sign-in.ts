import { deriveAuthSecret } from '@crw/core';
import * as z from 'zod/mini';
import { apiFetch } from '../../../lib/api-client';

/** better-auth's email sign-in, with the derived auth secret in place of the password. */
export async function signIn(email: string, password: string): Promise<void> {
  const normalized = email.trim().toLowerCase();
  const authSecret = await deriveAuthSecret(password, normalized);
  await apiFetch('/auth/sign-in/email', z.object({ user: z.object({ id: z.string() }) }), {
    method: 'POST',
    body: { email: normalized, password: authSecret, rememberMe: true },
  });
}
