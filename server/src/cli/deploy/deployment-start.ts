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
import { recordRoles, type DeploymentRecord } from './deployment-record';

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
    if (settings.rolesGiven && !sameRoles(recordRoles(earlier), settings, operator)) {
      throw new Error(
        `${file} records a deployment with other keys (treasury ${recordRoles(earlier).treasury}). Run without --treasury, --guardian and --review-hours to finish or show it, ${MOVE_ASIDE}.`,
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
    // The roles are the chain's: the treasury and the window are read back; guardians cannot be
    // listed (AccessControl keeps no list), so none are recorded.
    const contract = distributorContract(chain, distributor);
    const [treasury, reviewSeconds] = (await Promise.all([
      contract.getFunction('treasury')(),
      contract.getFunction('reviewPeriod')(),
    ]).catch(() => {
      throw new Error(
        `The distributor at ${distributor} has no treasury: it was deployed before the keys were separated (docs/operations.md#separate-keys). Deploy new contracts.`,
      );
    })) as [string, bigint];
    return {
      chainId: chain.chainId,
      operator,
      token: getAddress(token),
      distributor: getAddress(distributor),
      nonce: null,
      supply: null,
      roles: {
        treasury: getAddress(treasury),
        guardians: [],
        reviewSeconds: Number(reviewSeconds),
      },
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
    roles: {
      treasury: settings.roles.treasury ?? operator,
      guardians: settings.roles.treasury === null ? [operator] : settings.roles.guardians,
      reviewSeconds: settings.roles.reviewSeconds,
    },
    allowance: settings.allowance.toString(),
    transactions: {},
  };
}

function sameRoles(
  recorded: { treasury: string; guardians: string[]; reviewSeconds: number },
  settings: DeploySettings,
  operator: string,
): boolean {
  const treasury = settings.roles.treasury ?? operator;
  return (
    getAddress(recorded.treasury) === getAddress(treasury) &&
    recorded.reviewSeconds === settings.roles.reviewSeconds &&
    (settings.roles.guardians.length === 0 ||
      recorded.guardians.join() === settings.roles.guardians.join())
  );
}

/** Refuses contracts that are not a pair (the token's distributor, the distributor's token), whose
 * publisher is another key (the server could not propose rounds), whose treasury is not the one on
 * record, or that lack the treasury's approval. Returns the supply. */
export async function verifyDeployment(
  chain: DeployChain,
  record: DeploymentRecord,
): Promise<{ supply: bigint }> {
  const token = tokenContract(chain, record.token);
  const distributor = distributorContract(chain, record.distributor);
  const [tokensDistributor, distributorsToken, publisherRole, treasury, supply] =
    (await Promise.all([
      token.getFunction('distributor')(),
      distributor.getFunction('token')(),
      distributor.getFunction('PUBLISHER_ROLE')(),
      distributor.getFunction('treasury')(),
      token.getFunction('totalSupply')(),
    ]).catch(() => {
      throw new Error(
        `The contracts at ${record.token} and ${record.distributor} are not a RemeToken and a RewardsDistributor with separate keys.`,
      );
    })) as [string, string, string, string, bigint];
  if (
    getAddress(tokensDistributor) !== record.distributor ||
    getAddress(distributorsToken) !== record.token
  ) {
    throw new Error(
      `The token at ${record.token} and the distributor at ${record.distributor} are not a pair (the token's distributor is ${tokensDistributor}, the distributor's token ${distributorsToken}).`,
    );
  }
  if (!(await distributor.getFunction('hasRole')(publisherRole, chain.operator.address))) {
    throw new Error(
      `The operator ${chain.operator.address} (OPERATOR_PRIVATE_KEY) is not the distributor's publisher at ${record.distributor}: the server could not propose rounds with this key. The treasury ${treasury} can grant it.`,
    );
  }
  if (getAddress(treasury) !== getAddress(recordRoles(record).treasury))
    throw new Error(
      `The distributor's treasury is ${treasury}, not ${recordRoles(record).treasury} as recorded.`,
    );
  if (!(await approvalDone(chain, record)))
    throw new Error(
      `The treasury ${treasury} has not approved the distributor at ${record.distributor} to draw the rounds' funding.`,
    );
  return { supply };
}
