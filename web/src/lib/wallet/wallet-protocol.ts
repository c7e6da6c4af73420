// Messages between the page and the wallet worker (scrypt runs there, never on the main thread).
export type WalletTask =
  | { kind: 'create'; password: string }
  | { kind: 'check'; keystore: string; password: string }
  | { kind: 'reencrypt'; keystore: string; oldPassword: string; newPassword: string }
  | { kind: 'restore'; phrase: string; expectedAddress: string; newPassword: string }
  | { kind: 'sign'; keystore: string; password: string; tx: LegacyTransaction };

/** A legacy (gas price) transaction, numbers as decimal strings; the fee is gasLimit × gasPrice. */
export interface LegacyTransaction {
  to: string;
  data: string;
  gasLimit: string;
  gasPrice: string;
  nonce: number;
  chainId: string;
}

export interface CreatedWallet {
  address: string;
  keystore: string;
  phrase: string;
}

export interface EncryptedWallet {
  address: string;
  keystore: string;
}

export type WalletResult =
  | { kind: 'create'; wallet: CreatedWallet }
  | { kind: 'check'; opens: boolean; address: string | null }
  | { kind: 'reencrypt'; wallet: EncryptedWallet }
  | { kind: 'restore'; wallet: EncryptedWallet }
  | { kind: 'sign'; from: string; raw: string };

export type WorkerMessage =
  | { type: 'progress'; fraction: number }
  | { type: 'done'; result: WalletResult }
  | { type: 'failed'; reason: 'invalid_password' | 'invalid_mnemonic' | 'wrong_wallet' | 'error'; message: string };
