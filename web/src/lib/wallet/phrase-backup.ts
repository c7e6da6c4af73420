// Recording that the member saved their recovery phrase (docs/security.md#the-recovery-phrase): the
// words they typed back make their wallet in the worker, whose key signs a 'backup-phrase'
// challenge; the server then drops the dashboard's "Back up your wallet" task. No session is
// needed (a sign-up that waits for e-mail confirmation has none yet): the signature is the proof.
import { okResponse } from '@crw/core';
import { apiFetch } from '../api-client';
import { walletChallenge } from '../session';
import { runWalletTask } from './wallet-client';

export async function recordPhraseSaved(phrase: string, expectedAddress?: string): Promise<void> {
  const challenge = await walletChallenge('backup-phrase');
  const { address, proof } = await runWalletTask({
    kind: 'proveBackup',
    phrase,
    challenge,
    ...(expectedAddress ? { expectedAddress } : {}),
  });
  await apiFetch('/api/wallet/phrase-saved', okResponse, {
    method: 'POST',
    body: { address, proof },
  });
}
