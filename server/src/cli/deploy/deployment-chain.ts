// What `ops deploy` asks of the chain: it talks to CHAIN_RPC_URL itself (not to the server), signs
// with OPERATOR_PRIVATE_KEY, and waits for its own transactions' confirmations.
import { artifact } from '@crw/contracts';
import {
  BrowserProvider,
  Contract,
  MaxUint256,
  Transaction,
  Wallet,
  formatEther,
  formatUnits,
} from 'ethers';
import {
  nonceTaken as nonceTakenOnChain,
  sendRecorded,
  transactionState as stateOnChain,
  type TransactionState,
} from '../../infra/chain/durable-tx';
import { openRemoteNode, type ChainNode } from '../../infra/chain/node';
import {
  recordRoles,
  separateTreasury,
  type DeploymentRecord,
  type SentTransaction,
} from './deployment-record';

const POLL_MS = 500;
/** Gas for the approval when the token is not there yet to estimate it (it takes about 47,000). */
const APPROVAL_GAS = 100_000n;

export interface DeployChain {
  node: ChainNode;
  provider: BrowserProvider;
  chainId: number;
  operator: Wallet;
}

/** The URL without credentials, path or query (a provider's API key often sits in its path). */
function origin(url: string): string {
  const { protocol, host } = new URL(url);
  return `${protocol}//${host}`;
}

export async function connect(rpcUrl: string, operatorKey: string): Promise<DeployChain> {
  const node = openRemoteNode(rpcUrl);
  const chainId = await node.request({ method: 'eth_chainId' }).then(Number, (error: unknown) => {
    throw new Error(
      `The chain node at ${origin(rpcUrl)} (CHAIN_RPC_URL) did not answer: ${(error as Error).message}. Check the URL and that the node is up.`,
    );
  });
  const provider = new BrowserProvider(node, chainId, {
    cacheTimeout: -1,
    pollingInterval: POLL_MS,
  });
  return { node, provider, chainId, operator: new Wallet(operatorKey, provider) };
}

export async function hasCode(chain: DeployChain, address: string): Promise<boolean> {
  return (await chain.provider.getCode(address)) !== '0x';
}

export function tokenContract(chain: DeployChain, address: string): Contract {
  return new Contract(address, artifact('RemeToken').abi, chain.provider);
}

export function distributorContract(chain: DeployChain, address: string): Contract {
  return new Contract(address, artifact('RewardsDistributor').abi, chain.provider);
}

/** Whether the treasury's approval of the distributor is in place: any amount for the operator's
 * own treasury; for a treasury of its own, an allowance, or rounds already drawn from one. */
export async function approvalDone(chain: DeployChain, record: DeploymentRecord): Promise<boolean> {
  if (!(await hasCode(chain, record.token))) return false;
  const { treasury } = recordRoles(record);
  const allowance = (await tokenContract(chain, record.token).getFunction('allowance')(
    treasury,
    record.distributor,
  )) as bigint;
  if (!separateTreasury(record)) return allowance === MaxUint256;
  if (allowance > 0n) return true;
  if (!(await hasCode(chain, record.distributor))) return false;
  return (
    ((await distributorContract(chain, record.distributor).getFunction(
      'latestIndex',
    )()) as bigint) > 0n
  );
}

export type { TransactionState };

export async function transactionState(
  chain: DeployChain,
  tx: SentTransaction,
): Promise<TransactionState> {
  return stateOnChain(chain.provider, tx.hash);
}

/** Whether another transaction of the operator's has taken `tx`'s nonce, so `tx` can never be mined. */
export async function nonceTaken(chain: DeployChain, tx: SentTransaction): Promise<boolean> {
  return nonceTakenOnChain(chain.provider, chain.operator.address, tx.nonce);
}

export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

export async function currentFees(chain: DeployChain): Promise<Fees> {
  const data = await chain.provider.getFeeData();
  if (data.maxFeePerGas === null || data.maxPriorityFeePerGas === null)
    throw new Error(
      `chain ${chain.chainId} has no EIP-1559 fees; deploy supports only chains that do (Sepolia does)`,
    );
  return { maxFeePerGas: data.maxFeePerGas, maxPriorityFeePerGas: data.maxPriorityFeePerGas };
}

/** The gas limit for a transaction: its estimate and a tenth more, or APPROVAL_GAS for an approval
 * of a token not created yet (an estimate of a call to an empty address means nothing). */
export async function gasLimit(
  chain: DeployChain,
  request: { to?: string; data: string },
): Promise<bigint> {
  if (request.to && !(await hasCode(chain, request.to))) return APPROVAL_GAS;
  const estimate = await chain.provider.estimateGas({ from: chain.operator.address, ...request });
  return (estimate * 11n) / 10n;
}

/** Refuses, saying how much ETH is missing, when the operator cannot pay `gas` at `fees`. */
export async function checkFunds(chain: DeployChain, gas: bigint, fees: Fees): Promise<void> {
  const balance = await chain.provider.getBalance(chain.operator.address);
  const needed = gas * fees.maxFeePerGas;
  if (balance >= needed) return;
  throw new Error(
    `The operator ${chain.operator.address} has ${formatEther(balance)} ETH; deploying needs up to ${formatEther(needed)} ETH for gas ` +
      `(${gas} gas at up to ${formatUnits(fees.maxFeePerGas, 'gwei')} gwei). Send at least ${formatEther(needed - balance)} ETH to it ` +
      `(on Sepolia: from a faucet) and run deploy again. Nothing was sent.`,
  );
}

export async function sign(
  chain: DeployChain,
  request: { nonce: number; to?: string; data: string },
  gas: bigint,
  fees: Fees,
): Promise<SentTransaction> {
  const raw = await chain.operator.signTransaction({
    type: 2,
    chainId: chain.chainId,
    value: 0n,
    gasLimit: gas,
    ...fees,
    ...request,
  });
  return { hash: Transaction.from(raw).hash!, nonce: request.nonce, raw };
}

/** Sends `tx` (again); a node that already has it is fine, a nonce taken by another transaction is not. */
export async function broadcast(
  chain: DeployChain,
  tx: SentTransaction,
  what: string,
): Promise<void> {
  let outcome;
  try {
    outcome = await sendRecorded(chain, chain.operator.address, tx);
  } catch (error) {
    throw new Error(
      `The node refused ${what}'s transaction ${tx.hash}: ${(error as Error).message}`,
    );
  }
  if (outcome === 'nonce-taken') throw replacedError(tx, what);
}

/** A recorded transaction that will never do its work: it failed, or its nonce went to another. */
export class StuckTransaction extends Error {
  constructor(
    message: string,
    readonly what: string,
  ) {
    super(message);
  }
}

function replacedError(tx: SentTransaction, what: string): StuckTransaction {
  return new StuckTransaction(
    `${what}'s transaction ${tx.hash} (nonce ${tx.nonce}) was never mined, and another transaction of the operator's has taken its nonce.`,
    what,
  );
}

/**
 * Waits until each transaction has `confirmations` blocks (its own included). One the node has
 * forgotten (dropped from its pool) is sent again; a failed one, or one whose nonce another
 * transaction took, stops the wait with an error. Returns whether it had to wait.
 */
export async function waitForConfirmations(
  chain: DeployChain,
  transactions: { what: string; tx: SentTransaction }[],
  confirmations: number,
): Promise<boolean> {
  let announced = false;
  for (;;) {
    const head = await chain.provider.getBlockNumber();
    const unconfirmed: string[] = [];
    for (const { what, tx } of transactions) {
      const state = await transactionState(chain, tx);
      if (state.kind === 'mined' && state.receipt.status !== 1) {
        throw new StuckTransaction(
          `${what}'s transaction ${tx.hash} failed (block ${state.receipt.blockNumber}, status ${state.receipt.status}).`,
          what,
        );
      }
      if (state.kind === 'unknown') {
        await broadcast(chain, tx, what);
        console.log(`Sent ${what}'s transaction ${tx.hash} again: the node no longer had it.`);
      }
      if (state.kind !== 'mined' || head - state.receipt.blockNumber + 1 < confirmations)
        unconfirmed.push(what);
    }
    if (unconfirmed.length === 0) return announced;
    if (!announced) {
      console.log(
        `Waiting for ${confirmations} confirmation${confirmations === 1 ? '' : 's'} of ${unconfirmed.join(', ')}…`,
      );
      announced = true;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
