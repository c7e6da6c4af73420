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
  transactions: Partial<Record<Step, SentTransaction>>;
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
