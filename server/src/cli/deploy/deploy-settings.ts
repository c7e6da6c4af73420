// What `ops deploy` reads: the chain and the operator key (environment or .env, as the server reads
// them), DATA_DIR for its record, and the flags: the treasury's supply and the confirmations to wait for.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseUnits } from 'ethers';
import { deployEnvSchema, withoutEmpty } from '../../config';

/** REME minted to the treasury by default: as much as the embedded chain's (server/src/infra/chain/chain.ts). */
export const DEFAULT_SUPPLY = '1000000000';
export const DEFAULT_CONFIRMATIONS = 2;

export interface DeploySettings {
  rpcUrl: string;
  operatorKey: string;
  dataDir: string;
  supply: bigint;
  /** Whether --supply was given (a rerun of a recorded deployment refuses a different one). */
  supplyGiven: boolean;
  confirmations: number;
  /** TOKEN_ADDRESS and DISTRIBUTOR_ADDRESS when both are set: contracts deployed earlier. */
  configured: { token: string; distributor: string } | undefined;
}

export function deploySettings(
  args: string[],
  env: Record<string, string | undefined>,
): DeploySettings {
  const { values } = parseArgs({
    args,
    options: { supply: { type: 'string' }, confirmations: { type: 'string' } },
  });
  const problems: string[] = [];
  const parsed = deployEnvSchema.safeParse(withoutEmpty(env));
  if (!parsed.success)
    problems.push(...parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  const e = parsed.success ? parsed.data : undefined;
  if (e && !e.CHAIN_RPC_URL)
    problems.push(
      "CHAIN_RPC_URL is not set: the JSON-RPC URL of the chain to deploy to (for Sepolia, your node provider's https endpoint)",
    );
  if (e && !e.OPERATOR_PRIVATE_KEY) {
    problems.push(
      'OPERATOR_PRIVATE_KEY is not set: the 0x-prefixed key of the account that deploys, owns the distributor and publishes the rounds (it pays the gas)',
    );
  }
  const supply = values.supply ?? DEFAULT_SUPPLY;
  if (!/^\d+(\.\d{1,18})?$/.test(supply) || parseUnits(supply, 18) === 0n)
    problems.push(`--supply must be a positive number of REME, e.g. ${DEFAULT_SUPPLY}`);
  const confirmations = Number(values.confirmations ?? DEFAULT_CONFIRMATIONS);
  if (!Number.isInteger(confirmations) || confirmations < 1)
    problems.push('--confirmations must be a whole number of blocks, at least 1');
  if (!e?.CHAIN_RPC_URL || !e.OPERATOR_PRIVATE_KEY || problems.length > 0)
    throw new Error(`deploy did not start:\n  - ${problems.join('\n  - ')}`);
  return {
    rpcUrl: e.CHAIN_RPC_URL,
    operatorKey: e.OPERATOR_PRIVATE_KEY,
    dataDir: path.resolve(e.DATA_DIR),
    supply: parseUnits(supply, 18),
    supplyGiven: values.supply !== undefined,
    confirmations,
    configured:
      e.TOKEN_ADDRESS && e.DISTRIBUTOR_ADDRESS
        ? { token: e.TOKEN_ADDRESS, distributor: e.DISTRIBUTOR_ADDRESS }
        : undefined,
  };
}
