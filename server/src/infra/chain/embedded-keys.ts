// The embedded chain's two genesis accounts: the operator (deploys the contracts, holds the
// treasury, owns the distributor) and the development faucet. Their keys are made per install at
// first start and kept in DATA_DIR, never Hardhat's public test mnemonic, whose keys anyone can
// sign with. The journal in the database replays only with these keys: keep both.
import { Wallet } from 'ethers';
import { keyFromFile } from '../../key-file';

/** Files under DATA_DIR holding the embedded chain's keys (hex, mode 0600). */
export const CHAIN_OPERATOR_KEY_FILE = 'chain-operator-key';
export const CHAIN_FAUCET_KEY_FILE = 'chain-faucet-key';
/** The sponsored-claims relayer's key (not a genesis account: the faucet funds it). */
export const CHAIN_RELAYER_KEY_FILE = 'chain-relayer-key';

export interface EmbeddedChainKeys {
  operator: string;
  faucet: string;
}

const newPrivateKey = () => Wallet.createRandom().privateKey;

export async function embeddedRelayerKey(dataDir: string): Promise<string> {
  return keyFromFile(dataDir, CHAIN_RELAYER_KEY_FILE, newPrivateKey);
}

export async function embeddedChainKeys(dataDir: string): Promise<EmbeddedChainKeys> {
  return {
    operator: await keyFromFile(dataDir, CHAIN_OPERATOR_KEY_FILE, newPrivateKey),
    faucet: await keyFromFile(dataDir, CHAIN_FAUCET_KEY_FILE, newPrivateKey),
  };
}
