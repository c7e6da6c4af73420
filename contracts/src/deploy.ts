// Deploys RemeToken and RewardsDistributor from one operator account: the token is told the
// distributor's address in advance (its CREATE address) and mints the supply to the treasury, and
// the treasury lets the distributor draw each round's funding (its approval). The roles
// (docs/security.md#the-keys) default to the operator alone with no review window: the embedded
// install's one key.
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

/** Who may do what on the distributor, and how long a proposed root waits before it pays. */
export interface Roles {
  /** Holds the supply, funds rounds by its allowance, grants roles, resumes claims. */
  treasury: string;
  /** The server's key: proposes roots only. */
  publisher: string;
  /** May cancel a root in review and pause claims. */
  guardians: string[];
  /** Seconds from a proposal until members can claim against it. */
  reviewSeconds: number;
}

/** The embedded install's roles: the one operator key is all three, and a root pays at once. */
export const soleOperator = (operator: string): Roles => ({
  treasury: operator,
  publisher: operator,
  guardians: [operator],
  reviewSeconds: 0,
});

export function planDeployment(operator: string, nonce: number): DeploymentPlan {
  return {
    operator,
    nonce,
    token: getCreateAddress({ from: operator, nonce }),
    distributor: getCreateAddress({ from: operator, nonce: nonce + 1 }),
  };
}

/** The deployment's three transactions, in order: the token (its `supply` minted to the treasury),
 * the distributor (with `roles`), the treasury's approval of the distributor for `allowance` (sent
 * by the treasury). The two creations must have the plan's nonces; the approval can come any time
 * after. */
export function deploymentTransactions(
  plan: DeploymentPlan,
  supply: bigint,
  roles: Roles = soleOperator(plan.operator),
  allowance: bigint = MaxUint256,
) {
  const creation = (name: 'RemeToken' | 'RewardsDistributor', args: unknown[]) => {
    const { abi, bytecode } = artifact(name);
    return concat([bytecode, new Interface(abi).encodeDeploy(args)]);
  };
  return {
    token: {
      nonce: plan.nonce,
      data: creation('RemeToken', [roles.treasury, supply, plan.distributor]),
    },
    distributor: {
      nonce: plan.nonce + 1,
      data: creation('RewardsDistributor', [
        roles.treasury,
        roles.publisher,
        roles.guardians,
        plan.token,
        roles.reviewSeconds,
      ]),
    },
    approval: {
      to: plan.token,
      data: new Interface(artifact('RemeToken').abi).encodeFunctionData('approve', [
        plan.distributor,
        allowance,
      ]),
    },
  };
}

/** Deploys from `operator` with `roles` (the operator alone by default); when the operator is the
 * treasury it also sends the treasury's approval. */
export async function deployContracts(
  operator: Signer,
  supply: bigint,
  roles?: Partial<Roles>,
): Promise<Deployment> {
  const plan = planDeployment(await operator.getAddress(), await operator.getNonce('pending'));
  const all = { ...soleOperator(plan.operator), ...roles };
  const transactions = deploymentTransactions(plan, supply, all);
  const created = [
    await operator.sendTransaction(transactions.token),
    await operator.sendTransaction(transactions.distributor),
  ];
  await Promise.all(created.map((sent) => sent.wait()));
  if (all.treasury === plan.operator)
    await (
      await operator.sendTransaction({ ...transactions.approval, nonce: plan.nonce + 2 })
    ).wait();
  return {
    token: new Contract(plan.token, artifact('RemeToken').abi, operator),
    distributor: new Contract(plan.distributor, artifact('RewardsDistributor').abi, operator),
  };
}
