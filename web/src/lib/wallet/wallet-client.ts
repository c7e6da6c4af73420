// Runs one wallet task in a fresh worker and resolves with its result; progress is reported as a
// fraction from 0 to 1. The worker (and the key material in it) is gone when the task ends.
import type { WalletFailure, WalletResult, WalletTask, WorkerMessage } from './wallet-protocol';

export class WalletTaskError extends Error {
  constructor(
    readonly reason: WalletFailure,
    message: string,
  ) {
    super(message);
  }
}

export function runWalletTask<K extends WalletTask['kind']>(
  task: Extract<WalletTask, { kind: K }>,
  onProgress: (fraction: number) => void = () => undefined,
): Promise<Extract<WalletResult, { kind: K }>> {
  const worker = new Worker(new URL('./wallet.worker.ts', import.meta.url), {
    type: 'module',
    name: 'wallet',
  });
  return new Promise((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<WorkerMessage>) => {
      const message = event.data;
      if (message.type === 'progress') return onProgress(message.fraction);
      worker.terminate();
      if (message.type === 'done') resolve(message.result as Extract<WalletResult, { kind: K }>);
      else reject(new WalletTaskError(message.reason, message.message));
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new WalletTaskError('error', event.message || 'The wallet worker failed'));
    };
    worker.postMessage(task);
  });
}
