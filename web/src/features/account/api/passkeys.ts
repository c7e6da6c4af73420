// The account page's passkeys: add (after the password; where the passkey has PRF, it also gets a
// copy of the wallet's key, sealed in the wallet worker), rename, remove (with the password), and
// "Use it to unlock your wallet" for a passkey without a copy (docs/decisions/0026-passkeys.md).
import {
  deriveAuthSecret,
  newPrfSalt,
  okResponse,
  passkeyCeremony,
  passkeyItem,
  type PasskeyItem,
  type UserDetails,
} from '@crw/core';
import { apiFetch } from '../../../lib/api-client';
import { createPasskey, passkeyPrf } from '../../../lib/passkeys';
export { passkeysQuery } from '../../../lib/passkeys';
import { runWalletTask } from '../../../lib/wallet/wallet-client';

const secretOf = (email: string, password: string) =>
  deriveAuthSecret(password, email.trim().toLowerCase());

/** Registers a new passkey (the browser's prompt); the server mails the member about it. */
export async function addPasskey(email: string, password: string): Promise<PasskeyItem> {
  const ceremony = await apiFetch('/api/account/passkeys/options', passkeyCeremony, {
    method: 'POST',
    body: { authSecret: await secretOf(email, password) },
  });
  const response = await createPasskey(ceremony.options);
  return apiFetch('/api/account/passkeys', passkeyItem, {
    method: 'POST',
    body: { challengeId: ceremony.challengeId, response },
  });
}

/** Seals the wallet's key for `passkey` (its PRF output, a second touch) and keeps the copy. */
export async function letPasskeyUnlockWallet(
  passkey: Pick<PasskeyItem, 'id' | 'credentialId'>,
  wallet: UserDetails['wallet'],
  password: string,
): Promise<void> {
  const prfSalt = newPrfSalt();
  const { prfOutput } = await passkeyPrf([{ credentialId: passkey.credentialId, prfSalt }]);
  const { sealed } = await runWalletTask({
    kind: 'seal',
    keystore: wallet.keystore,
    password,
    prfOutput,
    prfSalt,
  });
  await apiFetch(`/api/account/passkeys/${encodeURIComponent(passkey.id)}/wallet-key`, okResponse, {
    method: 'PUT',
    body: sealed,
  });
}

export const renamePasskey = (id: string, name: string) =>
  apiFetch(`/api/account/passkeys/${encodeURIComponent(id)}`, okResponse, {
    method: 'PATCH',
    body: { name },
  });

export async function removePasskey(email: string, password: string, id: string) {
  return apiFetch(`/api/account/passkeys/${encodeURIComponent(id)}`, okResponse, {
    method: 'DELETE',
    body: { authSecret: await secretOf(email, password) },
  });
}
