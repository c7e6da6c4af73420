// The embedded development chain: Hardhat Network (EDR) inside this process, behaving like a real
// node (failed transactions are mined with status 0 instead of throwing). Its genesis accounts are
// the keys the caller passes: the server's own per install, the well-known ones only in tests.
import { HDNodeWallet } from 'ethers';
import { createHardhatNetworkProvider } from 'hardhat/internal/hardhat-network/provider/provider.js';

export const DEV_CHAIN_ID = 31337;
const PUBLIC_TEST_MNEMONIC = 'test test test test test test test test test test test junk';
const DEV_BALANCE = 10n ** 24n; // 1,000,000 ETH each

/**
 * Hardhat's publicly known keys (from the public test mnemonic): anyone can sign with them, so
 * they are only for throwaway chains in tests and benchmarks, never a chain that keeps anything.
 */
export const WELL_KNOWN_TEST_KEYS = [0, 1, 2, 3].map(
  (i) => HDNodeWallet.fromPhrase(PUBLIC_TEST_MNEMONIC, undefined, `m/44'/60'/0'/0/${i}`).privateKey,
);

export interface DevChain {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

/** A fresh chain whose genesis accounts are `accountKeys`, each with 1,000,000 ETH. */
export async function createDevChain(accountKeys: readonly string[]): Promise<DevChain> {
  return (await createHardhatNetworkProvider(
    {
      hardfork: 'prague',
      chainId: DEV_CHAIN_ID,
      networkId: DEV_CHAIN_ID,
      blockGasLimit: 60_000_000,
      minGasPrice: 0n,
      automine: true,
      intervalMining: 0,
      mempoolOrder: 'priority',
      chains: new Map(),
      genesisAccounts: accountKeys.map((privateKey) => ({
        privateKey,
        balance: DEV_BALANCE.toString(),
      })),
      allowUnlimitedContractSize: false,
      throwOnTransactionFailures: false,
      throwOnCallFailures: true,
      allowBlocksWithSameTimestamp: false,
      initialBaseFeePerGas: 1_000_000_000,
      initialDate: new Date('2026-01-01T00:00:00Z'),
      enableTransientStorage: true,
      enableRip7212: false,
    },
    { enabled: false },
  )) as DevChain;
}
