// Deploys RemeToken and RewardsDistributor from one operator account: the token is told the
// distributor's address in advance (its CREATE address), and the operator lets the distributor
// draw each round's funding from the treasury.
import { Contract, Interface, MaxUint256, concat, getCreateAddress, type Signer } from 'ethers';
import { artifact } from './index';

export interface Deployment {
  token: Contract;
  distributor: Contract;
}

/** Where a deployment from `operator` starting at `nonce` puts the contracts: the token at `nonce`,
 * the distributor at `nonce + 1` (the token is built knowing that address). */
export interface DeploymentPlan {
  operator: string;
  nonce: number;
  token: string;
  distributor: string;
}

export function planDeployment(operator: string, nonce: number): DeploymentPlan {
  return {
    operator,
    nonce,
    token: getCreateAddress({ from: operator, nonce }),
    distributor: getCreateAddress({ from: operator, nonce: nonce + 1 }),
  };
}

/** The deployment's three transactions, in order: the token (its `supply` minted to the operator,
 * the treasury), the distributor (owned by the operator), the treasury's approval of the
 * distributor. The two creations must have the plan's nonces; the approval can come any time after. */
export function deploymentTransactions(plan: DeploymentPlan, supply: bigint) {
  const creation = (name: 'RemeToken' | 'RewardsDistributor', args: unknown[]) => {
    const { abi, bytecode } = artifact(name);
    return concat([bytecode, new Interface(abi).encodeDeploy(args)]);
  };
  return {
    token: {
      nonce: plan.nonce,
      data: creation('RemeToken', [plan.operator, supply, plan.distributor]),
    },
    distributor: {
      nonce: plan.nonce + 1,
      data: creation('RewardsDistributor', [plan.operator, plan.token]),
    },
    approval: {
      to: plan.token,
      data: new Interface(artifact('RemeToken').abi).encodeFunctionData('approve', [
        plan.distributor,
        MaxUint256,
      ]),
    },
  };
}

export async function deployContracts(operator: Signer, supply: bigint): Promise<Deployment> {
  const plan = planDeployment(await operator.getAddress(), await operator.getNonce('pending'));
  const transactions = deploymentTransactions(plan, supply);
  const created = [
    await operator.sendTransaction(transactions.token),
    await operator.sendTransaction(transactions.distributor),
  ];
  await Promise.all(created.map((sent) => sent.wait()));
  await (
    await operator.sendTransaction({ ...transactions.approval, nonce: plan.nonce + 2 })
  ).wait();
  return {
    token: new Contract(plan.token, artifact('RemeToken').abi, operator),
    distributor: new Contract(plan.distributor, artifact('RewardsDistributor').abi, operator),
  };
}
