// The operator CLI (`npm run ops -- <command>`): a client of the running server's operator API,
// never a second opener of its database. `deploy` alone talks to the chain, before any
// server runs.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  careActionConflictResponse,
  careActionResponse,
  errorResponse,
  formatAmount,
  fundDistributorResponse,
  fundResponse,
  publishRoundResponse,
  relayerStatusResponse,
  roundPreviewResponse,
} from '@crw/core';
import { operatorRoleResponse } from '@crw/core/console';
import { formatEther } from 'ethers';
import type * as z from 'zod/mini';
import { operatorKey, serverUrl } from './operator-api';
import { DEFAULT_CONFIRMATIONS, DEFAULT_SUPPLY } from './deploy/deploy-settings';

const usage = `Usage: npm run ops -- <command> [options]

Commands:
  deploy [--supply <REME>] [--confirmations <n>]
      Deploy RemeToken and RewardsDistributor to CHAIN_RPC_URL from OPERATOR_PRIVATE_KEY's account,
      mint --supply REME (default ${DEFAULT_SUPPLY}) to it as the treasury and approve the distributor
      to draw each round's funding; wait for --confirmations blocks (default ${DEFAULT_CONFIRMATIONS}) and print the
      .env lines for the server. Reads the environment and .env; records every transaction in
      DATA_DIR/deployment-<chain id>.json first, so a rerun finishes an interrupted deployment or
      shows the finished one, never deploying twice.
  care-action --email <address> --caps <n> --description <text> [--key <idempotency key>]
      Credit a care action's CAPs to a member. Re-running with the same --key credits nothing more.
  distribute [--publish]
      Without --publish: a dry run listing what the next round changes. With --publish: store every
      member's leaf and proof and publish the root on the chain. Safe to interrupt and rerun: an
      unfinished round is finished (its transaction found or sent again), never published twice.
  grant-operator --email <address>
      Make a confirmed member an operator: the web console at /operator opens for them once they
      have turned on two-factor sign-in. Recorded in the audit log.
  revoke-operator --email <address>
      Take the operator role away (the console closes at their next request).
  relayer
      The sponsored-claims relayer: its address, ETH balance, what it spent today against the daily
      budget, the claims queued, sent, confirmed and failed, and its transactions' fees.
  fund-relayer --eth <amount>
      Send ETH from the operator's account to the relayer, which pays members' claim fees.
  fund-distributor
      Send the distributor, from the operator's REME, what the current round owes beyond what it
      holds (the shortfall /metrics reports as crw_distributor_shortfall_wei); nothing when none.
  backup [--out <file>] [--passphrase-file <file>]
      Ask the running server for a backup: its database (the embedded one copied between two
      transactions, no stop; PostgreSQL through pg_dump) and the key files of DATA_DIR, with a
      manifest and checksums, checked here and written 0600 (never over a file). With
      BACKUP_PASSPHRASE or --passphrase-file (12 characters or more) it is encrypted (age).
  restore <file> [--passphrase-file <file>]
      With no server running: restore a backup into an empty DATA_DIR (embedded) or the empty
      database at DATABASE_URL. Refuses a changed or damaged archive, a wrong passphrase, a newer
      schema, another chain or other contracts, and a folder or database that is not empty; says
      what the backup cannot bring back.
  verify-round <index> [--url <service>] [--rpc <endpoint>] [--tree <file>]
      Anyone's check of a published round (no key needed): download its public tree.json (or read
      --tree), check it holds together and rebuilds its root, compare the root and the sum of its
      leaves with what the chain recorded, and, for the current round, that the distributor holds
      what the unclaimed leaves can draw. --url defaults to SERVER_URL; --rpc to the service's /rpc
      (which serves the current round only: older rounds need a node with eth_getLogs). Exits 1 and
      says why on any mismatch.
  fund <address> <eth>
      Development chain only: send ETH from the faucet to an address (e.g. fund 0xabc… 0.05).

Environment (deploy: CHAIN_RPC_URL, OPERATOR_PRIVATE_KEY, DATA_DIR):
  SERVER_URL        the running server (default http://localhost:3000)
  OPERATOR_API_KEY  the operator key (default: read from DATA_DIR/operator-key, DATA_DIR default ./data)`;

/** One operator API call; the answer is parsed with the API's own schema (core/src/api). */
async function call<T>(pathname: string, schema: z.ZodMiniType<T>, body?: unknown): Promise<T> {
  const server = serverUrl();
  // Outside the try: a missing key is said as such, not as a server that could not be reached.
  const key = await operatorKey();
  let response: Response;
  try {
    response = await fetch(`${server}${pathname}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        authorization: `Bearer ${key}`,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new Error(`Could not reach the server at ${server}. Is it running? (SERVER_URL)`);
  }
  const data: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const conflict = careActionConflictResponse.safeParse(data);
    if (conflict.success)
      throw new Error(
        `${response.status}: ${conflict.data.message} Recorded: ${JSON.stringify(conflict.data.recorded)}`,
      );
    const refusal = errorResponse.safeParse(data);
    throw new Error(
      `${response.status}: ${refusal.success ? refusal.data.message : 'request refused'}`,
    );
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success)
    throw new Error(`The server at ${server} answered ${pathname} with an unexpected body.`);
  return parsed.data;
}

async function careAction(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      email: { type: 'string' },
      caps: { type: 'string' },
      description: { type: 'string' },
      key: { type: 'string' },
    },
  });
  const caps = Number(values.caps);
  if (!values.email || !values.description || !Number.isInteger(caps) || caps <= 0) {
    throw new Error(
      'care-action needs --email, --description and --caps as a positive whole number',
    );
  }
  const idempotencyKey = values.key ?? randomUUID();
  const result = await call('/api/operator/care-actions', careActionResponse, {
    email: values.email,
    caps,
    description: values.description,
    idempotencyKey,
  });
  console.log(
    result.credited
      ? `Credited ${caps} CAPs to ${values.email} (key ${idempotencyKey}).`
      : `Already credited earlier under key ${idempotencyKey}: nothing changed.`,
  );
}

async function distribute(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { publish: { type: 'boolean', default: false } } });
  const preview = await call('/api/operator/distributions/preview', roundPreviewResponse);
  if (preview.openRound !== null)
    console.log(
      `Round ${preview.openRound} was started earlier and not finished; --publish finishes it first.`,
    );
  console.log(
    `Round ${preview.index}${values.publish ? '' : ' (dry run)'}: ${preview.members} members, ${formatAmount(preview.total)} REME in total, ${preview.changed} changed`,
  );
  if (preview.changes.length > 0) {
    console.log(`  ${'wallet'.padEnd(42)}  ${'previous'.padStart(16)}  ${'next'.padStart(16)}`);
    for (const c of preview.changes)
      console.log(
        `  ${c.address}  ${formatAmount(c.previous).padStart(16)}  ${formatAmount(c.next).padStart(16)}`,
      );
    if (preview.changed > preview.changes.length)
      console.log(`  … and ${preview.changed - preview.changes.length} more`);
  }
  if (!values.publish) {
    console.log('Dry run: nothing stored or published. Run with --publish to publish.');
    return;
  }
  const result = await call('/api/operator/distributions', publishRoundResponse, {});
  const claimable =
    result.inReview && result.activeAt ? `; in review, claimable from ${result.activeAt}` : '';
  if (result.outcome === 'unchanged')
    console.log(`Nothing changed since round ${result.index}: nothing to publish.`);
  else if (result.outcome === 'in_review')
    console.log(
      `Round ${result.index} is still in review${claimable ? `, claimable from ${result.activeAt}` : ''}: one round is in review at a time, nothing new was proposed.`,
    );
  else
    console.log(
      `${result.outcome === 'resumed' ? 'Finished the interrupted' : claimable ? 'Proposed' : 'Published'} round ${result.index}: root ${result.root}, ${result.members} members, ${formatAmount(result.total)} REME, transaction ${result.txHash}${claimable}`,
    );
}

async function operatorRole(args: string[], operator: boolean): Promise<void> {
  const { values } = parseArgs({ args, options: { email: { type: 'string' } } });
  const command = operator ? 'grant-operator' : 'revoke-operator';
  if (!values.email) throw new Error(`${command} needs --email <address>`);
  const result = await call('/api/operator/operators', operatorRoleResponse, {
    email: values.email,
    operator,
  });
  console.log(
    result.changed
      ? `${result.email} is ${operator ? 'now an operator' : 'no longer an operator'}.`
      : `${result.email} ${operator ? 'was already an operator' : 'was not an operator'}: nothing changed.`,
  );
}

async function fund(args: string[]): Promise<void> {
  const [address, eth] = args;
  if (!address || !eth)
    throw new Error('fund needs an address and an amount of ETH, e.g. fund 0xabc… 0.05');
  const result = await call('/api/operator/fund', fundResponse, { address, eth });
  console.log(
    `Sent ${eth} ETH to ${address} (transaction ${result.txHash}); its balance is now ${formatAmount(result.balance)} ETH.`,
  );
}

async function relayer(): Promise<void> {
  const r = await call('/api/operator/relayer', relayerStatusResponse);
  if (!r.enabled)
    console.log('Sponsored claims are off (SPONSOR_CLAIMS): members pay their own claim fee.');
  if (r.address)
    console.log(
      `Relayer ${r.address}: ${r.balance === null ? 'balance unknown' : `${formatEther(r.balance)} ETH`}`,
    );
  console.log(`Spent today: ${formatEther(r.spentToday)} of ${formatEther(r.dailyBudget)} ETH`);
  console.log(
    `Claims: ${r.queue.queued} queued, ${r.queue.sent} sent, ${r.queue.confirmed} confirmed, ${r.queue.failed} failed`,
  );
  console.log(
    `Transactions: ${r.transactions.mined} mined, ${r.transactions.pending} pending, ${r.transactions.failed} failed; fees ${formatEther(r.transactions.costWei)} ETH in all`,
  );
}

async function fundRelayer(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { eth: { type: 'string' } } });
  if (!values.eth || !/^\d+(\.\d{1,18})?$/.test(values.eth))
    throw new Error('fund-relayer needs --eth <amount>, e.g. fund-relayer --eth 0.2');
  const result = await call('/api/operator/relayer/fund', fundResponse, { eth: values.eth });
  console.log(
    `Sent ${values.eth} ETH to the relayer (transaction ${result.txHash}); its balance is now ${formatEther(result.balance)} ETH.`,
  );
}

async function fundDistributor(): Promise<void> {
  const r = await call('/api/operator/distributor/fund', fundDistributorResponse, {});
  const figures = `round ${r.round} owes ${formatEther(r.owed)} REME; the distributor holds ${formatEther(r.balance)} REME`;
  if (r.txHash === null) console.log(`Nothing to send: ${figures}.`);
  else
    console.log(
      `Sent ${formatEther(r.sent)} REME to the distributor (transaction ${r.txHash}); ${figures}.`,
    );
  if (r.shortfall !== '0')
    console.log(`Still ${formatEther(r.shortfall)} REME short (claims meanwhile?): run it again.`);
}

// The same .env as the server (OPERATOR_API_KEY, DATA_DIR, SERVER_URL); the environment wins.
if (existsSync('.env')) process.loadEnvFile('.env');
const [command, ...rest] = process.argv.slice(2);
try {
  if (command === 'deploy') await (await import('./deploy/deploy-command')).deploy(rest);
  else if (command === 'backup') await (await import('./backup-command')).backup(rest);
  else if (command === 'restore') await (await import('./backup-command')).restore(rest);
  else if (command === 'care-action') await careAction(rest);
  else if (command === 'distribute') await distribute(rest);
  else if (command === 'fund') await fund(rest);
  else if (command === 'grant-operator') await operatorRole(rest, true);
  else if (command === 'revoke-operator') await operatorRole(rest, false);
  else if (command === 'relayer') await relayer();
  else if (command === 'fund-relayer') await fundRelayer(rest);
  else if (command === 'fund-distributor') await fundDistributor();
  else if (command === 'verify-round')
    await (await import('./verify-round')).verifyRoundCommand(rest, serverUrl());
  else {
    console.log(usage);
    process.exitCode = command && command !== 'help' && command !== '--help' ? 1 : 0;
  }
} catch (error) {
  console.error(`ops: ${(error as Error).message}`);
  process.exitCode = 1;
}
