// Where the CLI finds the running server and the key its operator API takes.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { OPERATOR_KEY_FILE } from '../infra/identity/operator-key';

/** SERVER_URL without a trailing slash (default http://localhost:3000). */
export const serverUrl = () =>
  (process.env.SERVER_URL ?? 'http://localhost:3000').replace(/\/$/, '');

export async function operatorKey(): Promise<string> {
  if (process.env.OPERATOR_API_KEY) return process.env.OPERATOR_API_KEY;
  const file = path.join(path.resolve(process.env.DATA_DIR ?? './data'), OPERATOR_KEY_FILE);
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    throw new Error(
      `No OPERATOR_API_KEY and no key file at ${file}. Start the server once, or set OPERATOR_API_KEY.`,
    );
  }
}
