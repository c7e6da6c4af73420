// The wallet worker: creates, opens, re-encrypts keystores and signs transactions with ethers (scrypt N=131072, r=8,
// p=1), so the page never freezes. The keystore holds the private key only, never the phrase.
import {
  claimRequestDomain,
  claimRequestTypes,
  walletProofMessage,
  type WalletChallenge,
  type WalletProof,
} from '@crw/core';
import { HDNodeWallet, Mnemonic, Wallet } from 'ethers';
import type { EncryptedWallet, WalletResult, WalletTask, WorkerMessage } from './wallet-protocol';

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
    readonly reason: 'invalid_password' | 'invalid_mnemonic' | 'wrong_wallet',
    message: string,
  ) {
    super(message);
  }
}

async function open(
  keystore: string,
  password: string,
  onProgress: (f: number) => void,
): Promise<Wallet> {
  try {
    const wallet = await Wallet.fromEncryptedJson(keystore, password, onProgress);
    return new Wallet(wallet.privateKey);
  } catch {
    throw new TaskFailure('invalid_password', 'Invalid Wallet');
  }
}

async function prove(wallet: Wallet, challenge: WalletChallenge): Promise<WalletProof> {
  return {
    nonce: challenge.nonce,
    signature: await wallet.signMessage(walletProofMessage(challenge, wallet.address)),
  };
}

/** The wallet locked with `password`, with its proof: what the server accepts. */
async function encrypted(
  wallet: Wallet,
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
      const wallet = await encrypted(
        new Wallet(hd.privateKey),
        task.password,
        task.challenge,
        progress(0, 1),
      );
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
    case 'restore': {
      let hd: HDNodeWallet;
      try {
        hd = HDNodeWallet.fromMnemonic(
          Mnemonic.fromPhrase(task.phrase.trim().toLowerCase().split(/\s+/).join(' ')),
          PATH,
        );
      } catch {
        throw new TaskFailure('invalid_mnemonic', 'Invalid mnemonic provided');
      }
      if (hd.address.toLowerCase() !== task.expectedAddress.toLowerCase())
        throw new TaskFailure('wrong_wallet', 'Invalid mnemonic provided');
      return {
        kind: 'restore',
        wallet: await encrypted(
          new Wallet(hd.privateKey),
          task.newPassword,
          task.challenge,
          progress(0, 1),
        ),
      };
    }
    case 'sign': {
      const wallet = await open(task.keystore, task.password, progress(0, 1));
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
      const wallet = await open(task.keystore, task.password, progress(0, 1));
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
