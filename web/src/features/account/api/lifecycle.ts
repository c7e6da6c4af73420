// The account page's calls for the password change, the data export and the deletion. Passwords
// stay in the browser: the server gets the derived auth secrets and the re-encrypted keystore.
import {
  accountExportFileName,
  accountExportResponse,
  changePasswordResponse,
  deriveAuthSecret,
  okResponse,
} from '@crw/core';
import { apiFetch } from '../../../lib/api-client';
import { walletChallenge } from '../../../lib/session';
import { runWalletTask } from '../../../lib/wallet/wallet-client';
import { saveFile } from '../../../lib/save-file';

/**
 * Re-encrypts the keystore in the wallet worker (old → new password, signing a change-password
 * challenge), derives both auth secrets meanwhile, and sends it all at once: the server changes
 * the login secret and the keystore together or neither. `onProgress` follows the worker.
 */
export async function changePassword(
  args: { email: string; keystore: string; currentPassword: string; newPassword: string },
  onProgress: (fraction: number) => void,
) {
  const challenge = await walletChallenge('change-password');
  const secrets = Promise.all([
    deriveAuthSecret(args.currentPassword, args.email),
    deriveAuthSecret(args.newPassword, args.email),
  ]);
  const { wallet } = await runWalletTask(
    {
      kind: 'reencrypt',
      keystore: args.keystore,
      oldPassword: args.currentPassword,
      newPassword: args.newPassword,
      challenge,
    },
    onProgress,
  );
  const [currentAuthSecret, newAuthSecret] = await secrets;
  return apiFetch('/api/account/password', changePasswordResponse, {
    method: 'POST',
    body: { currentAuthSecret, newAuthSecret, wallet },
  });
}

/** Fetches the member's data and saves it as a JSON file (a Blob behind an `<a download>`). */
export async function downloadMyData(): Promise<string> {
  const data = await apiFetch('/api/account/export', accountExportResponse);
  const fileName = accountExportFileName(new Date(data.exportedAt));
  saveFile(fileName, 'application/json', `${JSON.stringify(data, null, 2)}\n`);
  return fileName;
}

/** Deletes the account after asking for the password again (re-authentication). */
export async function deleteMyAccount(email: string, password: string) {
  return apiFetch('/api/account', okResponse, {
    method: 'DELETE',
    body: { authSecret: await deriveAuthSecret(password, email) },
  });
}
