// The deployment record, DATA_DIR/deployment-<chain id>.json: where the contracts go and every
// transaction `ops deploy` signed, written before the transaction is sent. A rerun reads it to find
// what is done, what to wait for and what to send again, so it never deploys twice.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

export type Step = 'token' | 'distributor' | 'approval';

export interface SentTransaction {
  hash: string;
  nonce: number;
  /** The signed transaction, to send again if the node has forgotten it. */
  raw: string;
}

export interface DeploymentRecord {
  chainId: number;
  operator: string;
  token: string;
  distributor: string;
  /** The token's nonce, or null for contracts found at TOKEN_ADDRESS and DISTRIBUTOR_ADDRESS. */
  nonce: number | null;
  /** REME base units minted to the treasury (null when not deployed by this record). */
  supply: string | null;
  /** The distributor's roles (docs/security.md#the-keys); absent in a record of a one-key deployment
   * made before there were roles, which means the operator for everything and no review window. */
  roles?: { treasury: string; guardians: string[]; reviewSeconds: number };
  /** What the treasury approves the distributor to draw, base units (absent: any amount). */
  allowance?: string;
  transactions: Partial<Record<Step, SentTransaction>>;
}

/** The record's roles, the operator's alone for a record without them. */
export function recordRoles(record: DeploymentRecord) {
  return (
    record.roles ?? { treasury: record.operator, guardians: [record.operator], reviewSeconds: 0 }
  );
}

/** Whether the treasury is a key other than the operator's (it signs elsewhere, e.g. a Safe). */
export function separateTreasury(record: DeploymentRecord): boolean {
  return recordRoles(record).treasury.toLowerCase() !== record.operator.toLowerCase();
}

export function recordPath(dataDir: string, chainId: number): string {
  return path.join(dataDir, `deployment-${chainId}.json`);
}

export async function readRecord(file: string): Promise<DeploymentRecord | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(text) as DeploymentRecord;
  } catch {
    throw new Error(
      `${file} is not a deployment record (not JSON). Restore it, or move it aside to deploy anew.`,
    );
  }
}

/** Written whole or not at all (a new file renamed over the old), readable only by its owner like DATA_DIR. */
export async function writeRecord(file: string, record: DeploymentRecord): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const next = `${file}.next`;
  await writeFile(next, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  await rename(next, file);
}
