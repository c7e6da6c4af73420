// What `ops deploy` reads: the chain and the operator key (environment or .env, as the server reads
// them), DATA_DIR for its record, and the flags: the treasury's supply, the confirmations to wait
// for, and the keys (docs/security.md#the-keys): --treasury, --guardian, --review-hours,
// --allowance. Without --treasury the operator key is all three roles, as in the embedded install.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { getAddress, isAddress, MaxUint256, parseUnits } from 'ethers';
import { deployEnvSchema, withoutEmpty } from '../../config';

/** REME minted to the treasury by default: as much as the embedded chain's (server/src/infra/chain/chain.ts). */
export const DEFAULT_SUPPLY = '1000000000';
export const DEFAULT_CONFIRMATIONS = 2;
/** The review window with a separate treasury: a day for members and guardians to check a round. */
export const DEFAULT_REVIEW_HOURS = 24;
/** How long deploy waits for a treasury that signs elsewhere (a Safe) to approve the distributor. */
export const DEFAULT_WAIT_MINUTES = 60;

/** The distributor's roles as deploy sets them; the treasury null means the operator. */
export interface DeployRoles {
  treasury: string | null;
  guardians: string[];
  reviewSeconds: number;
}

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
  roles: DeployRoles;
  /** Whether --treasury, --guardian or --review-hours was given (a rerun refuses other ones). */
  rolesGiven: boolean;
  /** What the treasury approves the distributor to draw: any amount for the operator's own. */
  allowance: bigint;
  waitMinutes: number;
}

export function deploySettings(
  args: string[],
  env: Record<string, string | undefined>,
): DeploySettings {
  const { values } = parseArgs({
    args,
    options: {
      supply: { type: 'string' },
      confirmations: { type: 'string' },
      treasury: { type: 'string' },
      guardian: { type: 'string', multiple: true },
      'review-hours': { type: 'string' },
      allowance: { type: 'string' },
      'wait-minutes': { type: 'string' },
    },
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
  const address = (flag: string, value: string) => {
    if (isAddress(value)) return getAddress(value);
    problems.push(`${flag} must be an address (0x and 40 hex digits): ${value} is not`);
    return value;
  };
  const treasury = values.treasury === undefined ? null : address('--treasury', values.treasury);
  const guardians = (values.guardian ?? []).map((g) => address('--guardian', g));
  const hours = Number(
    values['review-hours'] ??
      e?.ROUND_REVIEW_HOURS ??
      (treasury === null ? 0 : DEFAULT_REVIEW_HOURS),
  );
  if (!Number.isFinite(hours) || hours < 0 || hours > 720)
    problems.push('--review-hours must be a number of hours from 0 to 720');
  if (treasury === null && guardians.length > 0)
    problems.push(
      '--guardian needs --treasury: without a treasury of its own the operator key is every role',
    );
  let allowance = MaxUint256;
  if (treasury !== null) {
    if (values.allowance === undefined)
      problems.push(
        '--allowance is needed with --treasury: how many REME the distributor may draw from the treasury for rounds (approve more later as rounds need it)',
      );
    else if (
      !/^\d+(\.\d{1,18})?$/.test(values.allowance) ||
      parseUnits(values.allowance, 18) === 0n
    )
      problems.push('--allowance must be a positive number of REME, e.g. 50000');
    else allowance = parseUnits(values.allowance, 18);
  }
  const waitMinutes = Number(values['wait-minutes'] ?? DEFAULT_WAIT_MINUTES);
  if (!Number.isFinite(waitMinutes) || waitMinutes < 0)
    problems.push('--wait-minutes must be a number of minutes, 0 or more');
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
    roles: {
      treasury,
      guardians: treasury === null ? [] : guardians.length > 0 ? guardians : [treasury],
      reviewSeconds: Math.round(hours * 3600),
    },
    rolesGiven:
      values.treasury !== undefined ||
      values.guardian !== undefined ||
      values['review-hours'] !== undefined,
    allowance,
    waitMinutes,
  };
}
