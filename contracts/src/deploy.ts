// Deploys RemeToken and RewardsDistributor from one operator account: the token is told the
// distributor's address in advance (its CREATE address), and the operator lets the distributor
// draw each round's funding from the treasury.
import type { Contract} from 'ethers';
import { MaxUint256, getCreateAddress, type Signer } from 'ethers';
import { contractFactory } from './index';

export interface Deployment {
  token: Contract;
  distributor: Contract;
}

export async function deployContracts(operator: Signer, supply: bigint): Promise<Deployment> {
  const from = await operator.getAddress();
  const nonce = await operator.getNonce('pending');
  const distributorAddress = getCreateAddress({ from, nonce: nonce + 1 });
  const token = await contractFactory('RemeToken', operator).deploy(from, supply, distributorAddress, { nonce });
  const distributor = await contractFactory('RewardsDistributor', operator).deploy(from, await token.getAddress(), {
    nonce: nonce + 1,
  });
  await Promise.all([token.waitForDeployment(), distributor.waitForDeployment()]);
  const approval = (await (token.connect(operator) as Contract).getFunction('approve')(distributorAddress, MaxUint256, {
    nonce: nonce + 2,
  })) as { wait(): Promise<unknown> };
  await approval.wait();
  return { token: token as Contract, distributor: distributor as Contract };
}
