import {
  deriveAuthSecret,
  registerResponse,
  type GatePass,
  type RegisterRequest,
  type WalletProof,
} from '@crw/core';
import { apiFetch } from '../../../lib/api-client';

export interface RegisterInput {
  email: string;
  password: string;
  username?: string;
  firstName?: string;
  lastName?: string;
  referralCode?: string;
  wallet: { address: string; keystore: string; proof: WalletProof };
}

/** The screen's size and the time zone: coarse, compared between sign-ups while their rewards are
 * held, never used to tell who a member is. */
function deviceHint(): { screen: string; timeZone: string } {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'unknown';
  return { screen: `${window.screen.width}x${window.screen.height}`, timeZone: zone.slice(0, 64) };
}

/** register / registerByReferral: only the derived secret, the address and the keystore leave (with
 * the sign-up gate's solution). The secret may come already derived (sign-up derives it while the
 * wallet is being made). */
export async function register(
  input: RegisterInput,
  authSecret: string | undefined,
  gate: GatePass,
) {
  const email = input.email.trim().toLowerCase();
  const body: RegisterRequest = {
    email,
    authSecret: authSecret ?? (await deriveAuthSecret(input.password, email)),
    wallet: input.wallet,
    gate,
    ...(input.username ? { username: input.username.trim() } : {}),
    ...(input.firstName ? { firstName: input.firstName.trim() } : {}),
    ...(input.lastName ? { lastName: input.lastName.trim() } : {}),
    ...(input.referralCode ? { referralCode: input.referralCode } : {}),
    device: deviceHint(),
  };
  return apiFetch('/api/register', registerResponse, { method: 'POST', body });
}
