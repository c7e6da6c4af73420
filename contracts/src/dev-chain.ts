// The embedded development chain: Hardhat Network (EDR) inside this process, behaving like a real
// node (failed transactions are mined with status 0 instead of throwing).
import { HDNodeWallet } from 'ethers';
import { createHardhatNetworkProvider } from 'hardhat/internal/hardhat-network/provider/provider.js';

export const DEV_CHAIN_ID = 31337;
const DEV_MNEMONIC = 'test test test test test test test test test test test junk';
const DEV_BALANCE = 10n ** 24n; // 1,000,000 ETH each

/** Hardhat's well-known development keys: [0] deploys and operates, [1] is the faucet. */
export const DEV_ACCOUNT_KEYS = [0, 1, 2, 3].map(
  (i) => HDNodeWallet.fromPhrase(DEV_MNEMONIC, undefined, `m/44'/60'/0'/0/${i}`).privateKey,
);

export interface DevChain {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

export async function createDevChain(): Promise<DevChain> {
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
      genesisAccounts: DEV_ACCOUNT_KEYS.map((privateKey) => ({ privateKey, balance: DEV_BALANCE.toString() })),
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
