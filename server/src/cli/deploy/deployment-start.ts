// Where a run of `ops deploy` starts: the deployment on record, contracts already configured
// (TOKEN_ADDRESS, DISTRIBUTOR_ADDRESS) when there is no record, or a new plan at the operator's next
// nonce. And the check at the end that the contracts are this operator's working pair.
import path from 'node:path';
import { planDeployment } from '@crw/contracts';
import { formatAmount } from '@crw/core';
import { getAddress } from 'ethers';
import type { DeploySettings } from './deploy-settings';
import {
  approvalDone,
  distributorContract,
  hasCode,
  tokenContract,
  type DeployChain,
} from './deployment-chain';
import type { DeploymentRecord } from './deployment-record';

const MOVE_ASIDE = 'or move the file aside to deploy anew';

export async function startingRecord(
  chain: DeployChain,
  settings: DeploySettings,
  file: string,
  earlier: DeploymentRecord | undefined,
): Promise<DeploymentRecord> {
  const operator = chain.operator.address;
  if (earlier) {
    if (getAddress(earlier.operator) !== operator) {
      throw new Error(
        `${file} records a deployment by ${earlier.operator}, but OPERATOR_PRIVATE_KEY is ${operator}'s. Deploy with that key, ${MOVE_ASIDE} with this one.`,
      );
    }
    if (
      settings.supplyGiven &&
      earlier.supply !== null &&
      BigInt(earlier.supply) !== settings.supply
    ) {
      throw new Error(
        `${file} records a deployment minting ${formatAmount(earlier.supply, 0)} REME, not the --supply given. Run without --supply to finish or show it, ${MOVE_ASIDE}.`,
      );
    }
    return earlier;
  }
  if (settings.configured) {
    for (const [name, address] of Object.entries({
      TOKEN_ADDRESS: settings.configured.token,
      DISTRIBUTOR_ADDRESS: settings.configured.distributor,
    })) {
      if (!(await hasCode(chain, address))) {
        throw new Error(
          `${name} is ${address}, but chain ${chain.chainId} has no contract there. To deploy new contracts, remove TOKEN_ADDRESS and DISTRIBUTOR_ADDRESS from the environment (and .env).`,
        );
      }
    }
    console.log(
      `No deployment record in ${path.dirname(file)}: checking the contracts at TOKEN_ADDRESS and DISTRIBUTOR_ADDRESS.`,
    );
    const { token, distributor } = settings.configured;
    return {
      chainId: chain.chainId,
      operator,
      token: getAddress(token),
      distributor: getAddress(distributor),
      nonce: null,
      supply: null,
      transactions: {},
    };
  }
  const plan = planDeployment(operator, await chain.operator.getNonce('pending'));
  return {
    chainId: chain.chainId,
    operator,
    token: plan.token,
    distributor: plan.distributor,
    nonce: plan.nonce,
    supply: settings.supply.toString(),
    transactions: {},
  };
}

/** Refuses contracts that are not a pair (the token's distributor, the distributor's token), whose
 * distributor another key owns (the server could not publish rounds) or that lack the approval.
 * Returns the supply. */
export async function verifyDeployment(
  chain: DeployChain,
  record: DeploymentRecord,
): Promise<{ supply: bigint }> {
  const token = tokenContract(chain, record.token);
  const distributor = distributorContract(chain, record.distributor);
  const [tokensDistributor, distributorsToken, owner, supply] = (await Promise.all([
    token.getFunction('distributor')(),
    distributor.getFunction('token')(),
    distributor.getFunction('owner')(),
    token.getFunction('totalSupply')(),
  ]).catch(() => {
    throw new Error(
      `The contracts at ${record.token} and ${record.distributor} are not a RemeToken and a RewardsDistributor.`,
    );
  })) as [string, string, string, bigint];
  if (
    getAddress(tokensDistributor) !== record.distributor ||
    getAddress(distributorsToken) !== record.token
  ) {
    throw new Error(
      `The token at ${record.token} and the distributor at ${record.distributor} are not a pair (the token's distributor is ${tokensDistributor}, the distributor's token ${distributorsToken}).`,
    );
  }
  if (getAddress(owner) !== chain.operator.address) {
    throw new Error(
      `The distributor at ${record.distributor} is owned by ${owner}, not by the operator ${chain.operator.address} (OPERATOR_PRIVATE_KEY): the server could not publish rounds with this key.`,
    );
  }
  if (!(await approvalDone(chain, record)))
    throw new Error(
      `The treasury (the operator) has not approved the distributor at ${record.distributor} to draw the rounds' funding.`,
    );
  return { supply };
}
