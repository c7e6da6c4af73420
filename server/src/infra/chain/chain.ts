// The server's view of the chain: the node, an ethers provider over it, the operator's wallet and
// the two contracts. The embedded chain deploys them at first start with the install's own
// operator key; production uses the configured addresses and checks that code is there.
import { artifact, deployContracts } from '@crw/contracts';
import { BrowserProvider, Contract, Wallet, getCreateAddress, parseEther } from 'ethers';
import type { Log } from '../../logging';
import type { OnJournalDropped } from './journal';
import type { Config } from '../../config';
import type { Database } from '../db/database';
import { embeddedChainKeys } from './embedded-keys';
import { openEmbeddedNode, openRemoteNode } from './node';
import { countedNode, type CountedNode } from './node-calls';

/** The embedded chain's treasury: the operator holds it and funds each round from it. */
export const DEV_TREASURY = parseEther('1000000000');

export interface Chain {
  /** Every call the server makes to the node goes through it and is counted (`node.calls`). */
  node: CountedNode;
  provider: BrowserProvider;
  chainId: number;
  operator: Wallet;
  token: Contract;
  distributor: Contract;
  /** The development faucet's wallet (embedded chain only). */
  faucet: Wallet | undefined;
  /**
   * Runs `send` when no other transaction of the operator's account is being signed and sent in
   * this process: each takes the next nonce, so two at once would take the same one (a round
   * being published and the relayer being funded). Another process publishing at the same time
   * is handled where it happens (publishRound signs again when its nonce was taken).
   */
  operatorTurn<T>(send: () => Promise<T>): Promise<T>;
}

function turns(): <T>(work: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>) => {
    const next = tail.then(work, work);
    tail = next.catch(() => undefined);
    return next;
  };
}

export async function openChain(
  config: Config,
  database: Database,
  log: Log,
  onJournalDropped?: OnJournalDropped,
): Promise<Chain> {
  const embedded = !config.CHAIN_RPC_URL;
  const keys = embedded ? await embeddedChainKeys(config.dataDir) : undefined;
  const opened = keys
    ? await openEmbeddedNode(database.db, {
        keys,
        onDivergence: config.CHAIN_JOURNAL_ON_DIVERGENCE,
        onDropped: onJournalDropped,
        log,
      })
    : openRemoteNode(config.CHAIN_RPC_URL!);
  const node = countedNode(opened);
  const provider = new BrowserProvider(node, undefined, { cacheTimeout: -1, pollingInterval: 250 });
  const chainId = Number(await node.request({ method: 'eth_chainId' }));
  const operator = new Wallet(keys?.operator ?? config.OPERATOR_PRIVATE_KEY!, provider);

  let tokenAddress = config.TOKEN_ADDRESS;
  let distributorAddress = config.DISTRIBUTOR_ADDRESS;
  if (embedded) {
    tokenAddress = getCreateAddress({ from: operator.address, nonce: 0 });
    distributorAddress = getCreateAddress({ from: operator.address, nonce: 1 });
    if ((await provider.getCode(distributorAddress)) === '0x') {
      await deployContracts(operator, DEV_TREASURY);
      log.info({ tokenAddress, distributorAddress }, 'embedded chain: contracts deployed');
    } else {
      log.info(
        { replayed: (opened as { replayed?: number }).replayed, tokenAddress, distributorAddress },
        'embedded chain: restored',
      );
    }
  } else if ((await provider.getCode(distributorAddress!)) === '0x') {
    log.warn({ distributorAddress }, 'no contract code at DISTRIBUTOR_ADDRESS');
  }
  return {
    node,
    provider,
    chainId,
    operator,
    token: new Contract(tokenAddress!, artifact('RemeToken').abi, operator),
    distributor: new Contract(distributorAddress!, artifact('RewardsDistributor').abi, operator),
    faucet: keys ? new Wallet(keys.faucet, provider) : undefined,
    operatorTurn: turns(),
  };
}
