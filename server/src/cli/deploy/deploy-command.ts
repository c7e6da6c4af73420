// `npm run ops -- deploy`: deploys RemeToken and RewardsDistributor to CHAIN_RPC_URL and prints the
// server's .env lines. Every transaction is recorded before it is sent, so a rerun finishes or shows.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { artifact, deploymentTransactions, type DeploymentPlan } from '@crw/contracts';
import { formatAmount } from '@crw/core';
import { getAddress, MaxUint256 } from 'ethers';
import { safeBatch } from '../../infra/chain/safe-batch';
import { deploySettings, type DeploySettings } from './deploy-settings';
import {
  approvalDone,
  broadcast,
  checkFunds,
  connect,
  currentFees,
  gasLimit,
  hasCode,
  nonceTaken,
  sign,
  StuckTransaction,
  transactionState,
  waitForConfirmations,
  type DeployChain,
} from './deployment-chain';
import {
  readRecord,
  recordPath,
  recordRoles,
  separateTreasury,
  writeRecord,
  type DeploymentRecord,
  type Step,
} from './deployment-record';
import { startingRecord, verifyDeployment } from './deployment-start';

const NAMES: Record<Step, string> = {
  token: 'RemeToken',
  distributor: 'RewardsDistributor',
  approval: "the treasury's approval",
};
const CREATIONS = ['token', 'distributor'] as const;
/** How often deploy looks for the approval a treasury signs elsewhere. */
const APPROVAL_POLL_MS = 2_000;

/** The deployment's transactions for `record`: its roles, the operator publishing. */
function transactionsOf(record: DeploymentRecord, plan: DeploymentPlan, supply: bigint) {
  return deploymentTransactions(
    plan,
    supply,
    { ...recordRoles(record), publisher: record.operator },
    record.allowance === undefined ? MaxUint256 : BigInt(record.allowance),
  );
}
const EXPLORERS: Record<number, string> = {
  1: 'https://etherscan.io',
  11155111: 'https://sepolia.etherscan.io',
};

async function effectDone(
  chain: DeployChain,
  record: DeploymentRecord,
  step: Step,
): Promise<boolean> {
  return step === 'approval' ? approvalDone(chain, record) : hasCode(chain, record[step]);
}

/** A new approval is needed unless it is in place or the recorded one can still be mined. */
async function approvalToSend(chain: DeployChain, record: DeploymentRecord): Promise<boolean> {
  if (await approvalDone(chain, record)) return false;
  const tx = record.transactions.approval;
  if (!tx) return true;
  const state = await transactionState(chain, tx);
  if (state.kind === 'pending') return false;
  // Mined without the allowance in place: it failed, or the allowance was changed since.
  return state.kind === 'mined' || nonceTaken(chain, tx);
}

/** The recorded transactions to wait for: all but one the node forgot whose work is done anyway. */
async function toWaitFor(chain: DeployChain, record: DeploymentRecord, steps: readonly Step[]) {
  const waits = [];
  for (const step of steps) {
    const tx = record.transactions[step];
    if (!tx) continue;
    if (
      (await transactionState(chain, tx)).kind === 'unknown' &&
      (await effectDone(chain, record, step))
    )
      continue;
    waits.push({ what: NAMES[step], tx });
  }
  return waits;
}

async function sendCreations(
  chain: DeployChain,
  record: DeploymentRecord,
  file: string,
  plan: DeploymentPlan,
): Promise<number> {
  const missing: ('token' | 'distributor')[] = [];
  for (const step of CREATIONS)
    if (!record.transactions[step] && !(await hasCode(chain, record[step]))) missing.push(step);
  if (missing.length === 0) return 0;
  if (record.nonce === null)
    throw new Error(`No contract at ${record[missing[0]!]}, and no record of deploying it.`);
  const requests = transactionsOf(record, plan, BigInt(record.supply!));
  const fees = await currentFees(chain);
  const gas = await Promise.all(missing.map((step) => gasLimit(chain, requests[step])));
  // The approval is sent once the token is there; the operator must be able to pay for it too.
  const approvalGas =
    !separateTreasury(record) && (await approvalToSend(chain, record))
      ? await gasLimit(chain, requests.approval)
      : 0n;
  await checkFunds(chain, gas.reduce((a, b) => a + b, 0n) + approvalGas, fees);
  const nonce = await chain.operator.getNonce('pending');
  if (nonce !== requests[missing[0]!].nonce) {
    const expected = requests[missing[0]!].nonce;
    throw new Error(
      `${NAMES[missing[0]!]} must be created with nonce ${expected}, but the operator's next nonce is ${nonce}${nonce > expected ? ': another transaction took it' : ''}.`,
    );
  }
  for (const [i, step] of missing.entries())
    record.transactions[step] = await sign(chain, requests[step], gas[i]!, fees);
  await writeRecord(file, record);
  for (const step of missing) {
    const tx = record.transactions[step]!;
    await broadcast(chain, tx, NAMES[step]);
    console.log(
      `Sent ${NAMES[step]}: transaction ${tx.hash} (nonce ${tx.nonce}), creating ${record[step]}`,
    );
  }
  return missing.length;
}

/** A treasury that signs elsewhere (a Safe, a hardware wallet): writes its approval as a file for
 * Safe's Transaction Builder, says what to do, and waits for the allowance on chain. */
async function awaitTreasuryApproval(
  chain: DeployChain,
  record: DeploymentRecord,
  plan: DeploymentPlan,
  file: string,
  waitMinutes: number,
): Promise<void> {
  const { treasury } = recordRoles(record);
  const allowance = BigInt(record.allowance!);
  const batchFile = path.join(path.dirname(file), `treasury-approval-${chain.chainId}.json`);
  await mkdir(path.dirname(batchFile), { recursive: true, mode: 0o700 });
  const batch = safeBatch(
    chain.chainId,
    treasury,
    'REME: let the distributor draw the rounds’ funding',
    `Approves the RewardsDistributor ${plan.distributor} to draw up to ${formatAmount(allowance, 0)} REME from the treasury for distribution rounds.`,
    [
      {
        contract: 'RemeToken',
        to: plan.token,
        method: 'approve',
        args: [plan.distributor, allowance],
      },
    ],
  );
  await writeFile(batchFile, `${JSON.stringify(batch, null, 2)}\n`);
  console.log(
    `The treasury ${treasury} must approve the distributor to draw up to ${formatAmount(allowance, 0)} REME:`,
  );
  console.log(
    `  In its Safe: Apps → Transaction Builder → drag in ${batchFile}, then sign and execute.`,
  );
  console.log(
    `  From another wallet: call approve(${plan.distributor}, ${allowance}) on the token ${plan.token}.`,
  );
  console.log(`Waiting up to ${waitMinutes} minutes for the approval on chain…`);
  const until = Date.now() + waitMinutes * 60_000;
  while (!(await approvalDone(chain, record))) {
    if (Date.now() >= until)
      throw new Error(
        `The treasury has not approved the distributor yet. Once it has signed ${batchFile}, run deploy again to check and finish.`,
      );
    await sleep(APPROVAL_POLL_MS);
  }
  console.log(`The treasury approved the distributor.`);
}

async function sendApproval(
  chain: DeployChain,
  record: DeploymentRecord,
  file: string,
  plan: DeploymentPlan,
  waitMinutes: number,
): Promise<number> {
  if (!(await approvalToSend(chain, record))) return 0;
  if (separateTreasury(record)) {
    await awaitTreasuryApproval(chain, record, plan, file, waitMinutes);
    return 0;
  }
  const request = transactionsOf(record, plan, 0n).approval;
  const [fees, gas] = [await currentFees(chain), await gasLimit(chain, request)];
  await checkFunds(chain, gas, fees);
  const tx = await sign(
    chain,
    { ...request, nonce: await chain.operator.getNonce('pending') },
    gas,
    fees,
  );
  record.transactions.approval = tx;
  await writeRecord(file, record);
  await broadcast(chain, tx, NAMES.approval);
  console.log(
    `Sent ${NAMES.approval} of the distributor: transaction ${tx.hash} (nonce ${tx.nonce})`,
  );
  return 1;
}

/** Sends what is missing and waits: the creations mined, then the approval, then every confirmation. */
async function finish(
  chain: DeployChain,
  record: DeploymentRecord,
  file: string,
  confirmations: number,
  waitMinutes: number,
): Promise<{ sent: number; waited: boolean }> {
  const plan: DeploymentPlan = {
    operator: record.operator,
    nonce: record.nonce ?? 0,
    token: record.token,
    distributor: record.distributor,
  };
  let sent = await sendCreations(chain, record, file, plan);
  let waited = await waitForConfirmations(chain, await toWaitFor(chain, record, CREATIONS), 1);
  sent += await sendApproval(chain, record, file, plan, waitMinutes);
  waited =
    (await waitForConfirmations(
      chain,
      await toWaitFor(chain, record, [...CREATIONS, 'approval']),
      confirmations,
    )) || waited;
  return { sent, waited };
}

function printEnvLines(
  chain: DeployChain,
  record: DeploymentRecord,
  settings: DeploySettings,
): void {
  const { configured } = settings;
  if (
    configured &&
    (getAddress(configured.token) !== record.token ||
      getAddress(configured.distributor) !== record.distributor)
  ) {
    console.log(
      'Note: TOKEN_ADDRESS and DISTRIBUTOR_ADDRESS in the environment are not these contracts; the lines below are.',
    );
  }
  console.log(
    `\nAdd these lines to the server's .env (with OPERATOR_PRIVATE_KEY, the key that deployed; keep it secret):`,
  );
  console.log(`CHAIN_RPC_URL=${settings.rpcUrl}`);
  console.log(`TOKEN_ADDRESS=${record.token}`);
  console.log(`DISTRIBUTOR_ADDRESS=${record.distributor}`);
  const explorer = EXPLORERS[chain.chainId];
  if (explorer) console.log(`EXPLORER_URL=${explorer}`);
}

/** Deploys (or finishes deploying) both contracts; ops.ts has read `.env` like the server does. */
export async function deploy(args: string[]): Promise<void> {
  const settings = deploySettings(args, process.env);
  try {
    artifact('RemeToken');
  } catch {
    throw new Error('The contracts are not built: run `npm run build -w contracts` first.');
  }
  const chain = await connect(settings.rpcUrl, settings.operatorKey);
  const file = recordPath(settings.dataDir, chain.chainId);
  const earlier = await readRecord(file);
  const record = await startingRecord(chain, settings, file, earlier);

  const { sent, waited } = await finish(
    chain,
    record,
    file,
    settings.confirmations,
    settings.waitMinutes,
  ).catch((error: unknown) => {
    if (!(error instanceof StuckTransaction)) throw error;
    const next =
      error.what === NAMES.approval
        ? 'Run deploy again to send a new approval.'
        : `To deploy anew, at new addresses, move ${file} aside and run deploy again.`;
    throw new Error(`${error.message} ${next}`);
  });
  const { supply } = await verifyDeployment(chain, record);

  // Contracts found at TOKEN_ADDRESS and DISTRIBUTOR_ADDRESS (nonce null) were deployed before too.
  if (!earlier && record.nonce !== null) console.log(`Deployed on chain ${chain.chainId}:`);
  else if (sent === 0 && !waited)
    console.log(`Already deployed on chain ${chain.chainId}: nothing sent.`);
  else
    console.log(
      `Finished the deployment on chain ${chain.chainId} started earlier: ${sent} new transaction${sent === 1 ? '' : 's'} sent.`,
    );
  const roles = recordRoles(record);
  const own = !separateTreasury(record);
  console.log(
    `  RemeToken           ${record.token}  ${formatAmount(supply, 0)} REME, minted to the treasury ${own ? `(the operator) ${record.operator}` : roles.treasury}`,
  );
  console.log(
    `  RewardsDistributor  ${record.distributor}  the operator proposes rounds, drawing their funding from the treasury's approval`,
  );
  console.log(
    `  Guardians           ${roles.guardians.length > 0 ? roles.guardians.join(', ') : 'as granted on chain'}: may cancel a round in review and pause claims`,
  );
  console.log(
    `  Review window       ${roles.reviewSeconds / 3600} hours before a proposed round pays${roles.reviewSeconds === 0 ? ' (at once)' : ''}`,
  );
  if (existsSync(file)) console.log(`  Record              ${file}`);
  printEnvLines(chain, record, settings);
}
