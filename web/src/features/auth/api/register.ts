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

/** The screen's size and the time zone's offset: coarse, compared between sign-ups while their
 * rewards are held, never used to tell who a member is. The offset, not the zone's name: the first
 * Intl.DateTimeFormat a page makes loads time-zone data on its thread (a 100–200 ms task, measured
 * in the sign-up journey). */
function deviceHint(): { screen: string; timeZone: string } {
  const offset = -new Date().getTimezoneOffset();
  const hours = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
  const minutes = String(Math.abs(offset) % 60).padStart(2, '0');
  return {
    screen: `${window.screen.width}x${window.screen.height}`,
    timeZone: `UTC${offset < 0 ? '-' : '+'}${hours}:${minutes}`,
  };
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
