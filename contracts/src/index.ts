// The compiled contracts (build/artifacts.json, made by `npm run build -w contracts`), the
// in-process development chain and the deployment both the server and the tests use.
import { readFileSync } from 'node:fs';
import { ContractFactory, type ContractRunner, type InterfaceAbi } from 'ethers';

export { createDevChain, WELL_KNOWN_TEST_KEYS, DEV_CHAIN_ID, type DevChain } from './dev-chain';
export {
  deployContracts,
  deploymentTransactions,
  planDeployment,
  soleOperator,
  type Roles,
  type Deployment,
  type DeploymentPlan,
} from './deploy';
export {
  claimManyOutcome,
  CLAIM_SKIP_REASONS,
  type BatchClaim,
  type BatchOutcome,
  type ClaimSkipReason,
} from './claim-many';

export type ContractName = 'RemeToken' | 'RewardsDistributor';

interface Artifact {
  abi: InterfaceAbi;
  bytecode: string;
}

let loaded: Record<ContractName, Artifact> | undefined;

export function artifact(name: ContractName): Artifact {
  loaded ??= (
    JSON.parse(readFileSync(new URL('../build/artifacts.json', import.meta.url), 'utf8')) as {
      contracts: Record<ContractName, Artifact>;
    }
  ).contracts;
  return loaded[name];
}

export function contractFactory(name: ContractName, runner: ContractRunner): ContractFactory {
  const { abi, bytecode } = artifact(name);
  return new ContractFactory(abi, bytecode, runner);
}
