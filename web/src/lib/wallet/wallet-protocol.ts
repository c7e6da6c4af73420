// Messages between the page and the wallet worker (scrypt runs there, never on the main thread).
// Tasks that hand a wallet to the server also sign its challenge there (proof of possession).
import type { ClaimRequest, SealedWalletKey, WalletChallenge, WalletProof } from '@crw/core';

/** What opens the wallet for one task: the password (scrypt over the keystore) or a passkey's PRF
 * output with the copy of the key sealed for it (docs/decisions/0026-passkeys.md). */
export type WalletUnlock =
  | { with: 'password'; keystore: string; password: string }
  | {
      with: 'passkey';
      sealed: SealedWalletKey;
      prfOutput: Uint8Array<ArrayBuffer>;
      address: string;
    };

export type WalletTask =
  | { kind: 'create'; password: string; challenge: WalletChallenge }
  | { kind: 'check'; keystore: string; password: string }
  | {
      kind: 'reencrypt';
      keystore: string;
      oldPassword: string;
      newPassword: string;
      challenge: WalletChallenge;
    }
  /** The wallet a passkey opens, locked with a new password (recovery after a password reset). */
  | { kind: 'relock'; unlock: WalletUnlock; newPassword: string; challenge: WalletChallenge }
  | {
      kind: 'restore';
      phrase: string;
      expectedAddress: string;
      newPassword: string;
      challenge: WalletChallenge;
    }
  /** The recovery phrase the keystore holds (null for a keystore made before it kept one). */
  | { kind: 'reveal'; unlock: WalletUnlock }
  /** The wallet's key and phrase, opened with the password, sealed for a passkey's PRF output. */
  | {
      kind: 'seal';
      keystore: string;
      password: string;
      prfOutput: Uint8Array<ArrayBuffer>;
      prfSalt: string;
    }
  /** The typed-back phrase, proved with the key it makes (checked against `expectedAddress` when
   * the member's wallet is known; the server checks the address is a member's either way). */
  | { kind: 'proveBackup'; phrase: string; expectedAddress?: string; challenge: WalletChallenge }
  | { kind: 'sign'; unlock: WalletUnlock; tx: LegacyTransaction }
  | {
      kind: 'signClaimRequest';
      unlock: WalletUnlock;
      chainId: number;
      distributor: string;
      request: ClaimRequest;
    };

/** A legacy (gas price) transaction, numbers as decimal strings; the fee is gasLimit × gasPrice. */
export interface LegacyTransaction {
  to: string;
  data: string;
  gasLimit: string;
  gasPrice: string;
  nonce: number;
  chainId: string;
}

export interface EncryptedWallet {
  address: string;
  keystore: string;
  proof: WalletProof;
}

export interface CreatedWallet extends EncryptedWallet {
  phrase: string;
}

export type WalletResult =
  | { kind: 'create'; wallet: CreatedWallet }
  | { kind: 'check'; opens: boolean; address: string | null }
  | { kind: 'reencrypt'; wallet: EncryptedWallet }
  | { kind: 'restore'; wallet: EncryptedWallet }
  | { kind: 'relock'; wallet: EncryptedWallet }
  | { kind: 'reveal'; address: string; phrase: string | null }
  | { kind: 'seal'; address: string; sealed: SealedWalletKey }
  | { kind: 'proveBackup'; address: string; proof: WalletProof }
  | { kind: 'sign'; from: string; raw: string }
  | { kind: 'signClaimRequest'; from: string; signature: string };

export type WorkerMessage =
  | { type: 'progress'; fraction: number }
  | { type: 'done'; result: WalletResult }
  | {
      type: 'failed';
      reason: WalletFailure;
      message: string;
    };

/** Why a task failed: a wrong password, a passkey's copy that did not open, a phrase that is not
 * one or not this wallet's, or anything else. */
export type WalletFailure =
  'invalid_password' | 'passkey_unlock_failed' | 'invalid_mnemonic' | 'wrong_wallet' | 'error';
