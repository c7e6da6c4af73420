// The chain of a test app that never uses one (`buildTestApp({ chain: false })`): no node starts,
// nothing is deployed and no follower runs. The chain id and the contracts' addresses are those of
// an embedded install's first deployment; every call to the node fails as an unreachable node's
// would, and is counted, so the app's close() can refuse a test that reached for it after all.
import { artifact, DEV_CHAIN_ID } from '@crw/contracts';
import { BrowserProvider, Contract, Wallet, getCreateAddress } from 'ethers';
import type { Chain } from '../infra/chain/chain';
import { NodeError } from '../infra/chain/node';
import { countedNode } from '../infra/chain/node-calls';

export function noChain(): Chain {
  const node = countedNode({
    kind: 'embedded',
    request: async ({ method }) => {
      throw new NodeError(
        -32603,
        `this test app has no chain (built with chain: false): ${method}`,
      );
    },
  });
  const provider = new BrowserProvider(node, DEV_CHAIN_ID, { cacheTimeout: -1 });
  const operator = new Wallet(Wallet.createRandom().privateKey, provider);
  const at = (nonce: number) => getCreateAddress({ from: operator.address, nonce });
  return {
    node,
    provider,
    chainId: DEV_CHAIN_ID,
    operator,
    token: new Contract(at(0), artifact('RemeToken').abi, operator),
    distributor: new Contract(at(1), artifact('RewardsDistributor').abi, operator),
    faucet: undefined,
    operatorTurn: (send) => send(),
  };
}

/** Throws when a test app without a chain called the node: the test needs `chain: true`. */
export function assertChainUnused(chain: Chain): void {
  const { total, byMethod } = chain.node.calls;
  if (total > 0)
    throw new Error(
      `a test app built with chain: false called the chain ${total} time(s) (${Object.keys(byMethod).join(', ')}): build it with the chain`,
    );
}
