// The account page's calls: the profile, two-factor sign-in and the member's sessions.
import {
  deriveAuthSecret,
  okResponse,
  securityResponse,
  signedOutResponse,
  twoFactorEnableResponse,
  type ProfileRequest,
} from '@crw/core';
import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiFetch } from '../../../lib/api-client';
import { renewingSession } from '../../../lib/session';

export const securityQuery = queryOptions({
  queryKey: ['account', 'security'],
  queryFn: () => apiFetch('/api/account/security', securityResponse),
});

export const saveProfile = (profile: ProfileRequest) =>
  apiFetch('/api/account/profile', okResponse, { method: 'PUT', body: profile });

/** better-auth checks the password as the derived auth secret, never the password itself. */
const secretOf = (email: string, password: string) =>
  deriveAuthSecret(password, email.trim().toLowerCase());

/** Starts enrolment: the authenticator's otpauth:// URI and ten backup codes. On once verified. */
export async function startTwoFactor(email: string, password: string) {
  return apiFetch('/auth/two-factor/enable', twoFactorEnableResponse, {
    method: 'POST',
    body: { password: await secretOf(email, password) },
  });
}

/** Both renew the session (a new cookie replaces the old one). */
export const confirmTwoFactor = (code: string) =>
  renewingSession(
    apiFetch('/auth/two-factor/verify-totp', z.object({ token: z.string() }), {
      method: 'POST',
      body: { code },
    }),
  );

export async function turnOffTwoFactor(email: string, password: string, code: string) {
  const secret = await secretOf(email, password);
  return renewingSession(
    apiFetch('/auth/two-factor/disable', z.object({ status: z.boolean() }), {
      method: 'POST',
      body: { password: secret, code },
    }),
  );
}

export const endSession = (id: string) =>
  apiFetch(`/api/account/sessions/${encodeURIComponent(id)}`, signedOutResponse, {
    method: 'DELETE',
  });
export const endOtherSessions = () =>
  apiFetch('/api/account/sessions/sign-out-others', signedOutResponse, {
    method: 'POST',
    body: {},
  });
