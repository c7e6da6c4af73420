// The wallet worker: creates, opens, re-encrypts keystores and signs transactions with ethers (scrypt N=131072, r=8,
// p=1), so the page never freezes. A keystore made here holds the key and the recovery phrase, both
// locked by the password (ethers' "x-ethers" part), so the member can see the phrase again with the
// password; keystores made before that hold the key only (docs/security.md#the-recovery-phrase).
import {
  openWalletSecret,
  sealWalletSecret,
  claimRequestDomain,
  claimRequestTypes,
  walletProofMessage,
  type WalletChallenge,
  type WalletProof,
} from '@crw/core';
import { HDNodeWallet, Mnemonic, Wallet } from 'ethers';
import type {
  EncryptedWallet,
  WalletFailure,
  WalletResult,
  WalletTask,
  WalletUnlock,
  WorkerMessage,
} from './wallet-protocol';

const PATH = "m/44'/60'/0'/0/0";
const post = (message: WorkerMessage) => self.postMessage(message);
/**
 * Reports progress from `from` to `to`, at most once per percent: scrypt calls back thousands of
 * times, and a message each would keep the page's thread re-rendering the bar.
 */
const progress = (from: number, to: number) => {
  let last = -1;
  return (fraction: number) => {
    const percent = Math.floor(fraction * 100);
    if (percent === last) return;
    last = percent;
    post({ type: 'progress', fraction: from + (to - from) * fraction });
  };
};

class TaskFailure extends Error {
  constructor(
    readonly reason: Exclude<WalletFailure, 'error'>,
    message: string,
  ) {
    super(message);
  }
}

/** The wallet the keystore locks: with its recovery phrase when the keystore holds it. */
async function open(
  keystore: string,
  password: string,
  onProgress: (f: number) => void,
): Promise<Wallet | HDNodeWallet> {
  try {
    return await Wallet.fromEncryptedJson(keystore, password, onProgress);
  } catch {
    throw new TaskFailure('invalid_password', 'Invalid Wallet');
  }
}

/** The wallet `unlock` opens: the keystore with the password, or a passkey's sealed copy with its
 * PRF output (HKDF → AES-GCM, core's wallet-key-wrap.ts), checked to be the member's own wallet. */
async function unlocked(
  unlock: WalletUnlock,
  onProgress: (f: number) => void,
): Promise<Wallet | HDNodeWallet> {
  if (unlock.with === 'password') return open(unlock.keystore, unlock.password, onProgress);
  let secret;
  try {
    secret = await openWalletSecret(unlock.sealed, unlock.prfOutput);
  } catch {
    throw new TaskFailure('passkey_unlock_failed', 'The passkey did not open the wallet');
  }
  onProgress(1);
  const wallet = secret.phrase
    ? HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(secret.phrase), PATH)
    : new Wallet(secret.privateKey);
  if (wallet.address.toLowerCase() !== unlock.address.toLowerCase())
    throw new TaskFailure('wrong_wallet', 'The passkey opened another wallet');
  return wallet;
}

/** The wallet a typed phrase makes, when it is the member's (`expectedAddress`, when given). */
function fromPhrase(phrase: string, expectedAddress?: string): HDNodeWallet {
  let hd: HDNodeWallet;
  try {
    hd = HDNodeWallet.fromMnemonic(
      Mnemonic.fromPhrase(phrase.trim().toLowerCase().split(/\s+/).join(' ')),
      PATH,
    );
  } catch {
    throw new TaskFailure('invalid_mnemonic', 'Invalid mnemonic provided');
  }
  if (expectedAddress !== undefined && hd.address.toLowerCase() !== expectedAddress.toLowerCase())
    throw new TaskFailure('wrong_wallet', 'Invalid mnemonic provided');
  return hd;
}

const phraseOf = (wallet: Wallet | HDNodeWallet) =>
  'mnemonic' in wallet ? (wallet.mnemonic?.phrase ?? null) : null;

async function prove(
  wallet: Wallet | HDNodeWallet,
  challenge: WalletChallenge,
): Promise<WalletProof> {
  return {
    nonce: challenge.nonce,
    signature: await wallet.signMessage(walletProofMessage(challenge, wallet.address)),
  };
}

/** The wallet locked with `password`, with its proof: what the server accepts. */
async function encrypted(
  wallet: Wallet | HDNodeWallet,
  password: string,
  challenge: WalletChallenge,
  onProgress: (f: number) => void,
): Promise<EncryptedWallet> {
  const keystore = await wallet.encrypt(password, onProgress);
  return { address: wallet.address, keystore, proof: await prove(wallet, challenge) };
}

async function run(task: WalletTask): Promise<WalletResult> {
  switch (task.kind) {
    case 'create': {
      const hd = HDNodeWallet.createRandom(undefined, PATH);
      const phrase = hd.mnemonic?.phrase;
      if (!phrase) throw new Error('no mnemonic was generated');
      const wallet = await encrypted(hd, task.password, task.challenge, progress(0, 1));
      return { kind: 'create', wallet: { ...wallet, phrase } };
    }
    case 'check': {
      try {
        const wallet = await open(task.keystore, task.password, progress(0, 1));
        return { kind: 'check', opens: true, address: wallet.address };
      } catch {
        return { kind: 'check', opens: false, address: null };
      }
    }
    case 'reencrypt': {
      const wallet = await open(task.keystore, task.oldPassword, progress(0, 0.5));
      return {
        kind: 'reencrypt',
        wallet: await encrypted(wallet, task.newPassword, task.challenge, progress(0.5, 1)),
      };
    }
    case 'relock': {
      const wallet = await unlocked(task.unlock, progress(0, 0.1));
      return {
        kind: 'relock',
        wallet: await encrypted(wallet, task.newPassword, task.challenge, progress(0.1, 1)),
      };
    }
    case 'restore': {
      const hd = fromPhrase(task.phrase, task.expectedAddress);
      return {
        kind: 'restore',
        wallet: await encrypted(hd, task.newPassword, task.challenge, progress(0, 1)),
      };
    }
    case 'reveal': {
      const wallet = await unlocked(task.unlock, progress(0, 1));
      return { kind: 'reveal', address: wallet.address, phrase: phraseOf(wallet) };
    }
    case 'seal': {
      const wallet = await open(task.keystore, task.password, progress(0, 1));
      const sealed = await sealWalletSecret(
        { privateKey: wallet.privateKey, phrase: phraseOf(wallet) },
        task.prfOutput,
        task.prfSalt,
      );
      return { kind: 'seal', address: wallet.address, sealed };
    }
    case 'proveBackup': {
      // The words typed back make the member's wallet: its key signs that the phrase is saved.
      const hd = fromPhrase(task.phrase, task.expectedAddress);
      return { kind: 'proveBackup', address: hd.address, proof: await prove(hd, task.challenge) };
    }
    case 'sign': {
      const wallet = await unlocked(task.unlock, progress(0, 1));
      const { to, data, gasLimit, gasPrice, nonce, chainId } = task.tx;
      const raw = await wallet.signTransaction({
        type: 0,
        to,
        data,
        gasLimit: BigInt(gasLimit),
        gasPrice: BigInt(gasPrice),
        nonce,
        chainId: BigInt(chainId),
      });
      return { kind: 'sign', from: wallet.address, raw };
    }
    case 'signClaimRequest': {
      // A sponsored claim: the member's key signs what it asks the operator to claim (EIP-712).
      const wallet = await unlocked(task.unlock, progress(0, 1));
      const signature = await wallet.signTypedData(
        claimRequestDomain(task.chainId, task.distributor),
        claimRequestTypes,
        task.request,
      );
      return { kind: 'signClaimRequest', from: wallet.address, signature };
    }
  }
}

self.onmessage = async (event: MessageEvent<WalletTask>) => {
  try {
    post({ type: 'done', result: await run(event.data) });
  } catch (error) {
    if (error instanceof TaskFailure)
      post({ type: 'failed', reason: error.reason, message: error.message });
    else
      post({
        type: 'failed',
        reason: 'error',
        message: error instanceof Error ? error.message : String(error),
      });
  }
};
