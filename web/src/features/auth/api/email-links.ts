import { deriveAuthSecret, unsubscribeResponse, type GatePass } from '@crw/core';
import * as z from 'zod/mini';
import { apiFetch } from '../../../lib/api-client';

const status = z.looseObject({ status: z.boolean() });

/** resendConfirmation: the answer is the same whether or not the account exists. */
export function resendConfirmation(email: string, gate: GatePass) {
  return apiFetch('/auth/send-verification-email', status, {
    method: 'POST',
    body: { email: email.trim().toLowerCase(), callbackURL: '/?confirmed=true', gate },
  });
}

/** resetPassword: mails a single-use link to /reset-password (which needs the e-mail for the salt). */
export function requestPasswordReset(email: string, gate: GatePass) {
  const normalized = email.trim().toLowerCase();
  return apiFetch('/auth/request-password-reset', status, {
    method: 'POST',
    body: {
      email: normalized,
      redirectTo: `/reset-password?email=${encodeURIComponent(normalized)}`,
      gate,
    },
  });
}

export async function setNewPassword(token: string, email: string, newPassword: string) {
  return apiFetch('/auth/reset-password', status, {
    method: 'POST',
    body: { token, newPassword: await deriveAuthSecret(newPassword, email) },
  });
}

/** The link of a notification mail: turns its topic off, no sign-in needed (the link is signed). */
export const unsubscribe = (query: string) =>
  apiFetch(`/api/unsubscribe?${query}`, unsubscribeResponse, { method: 'POST' });
