// The operator CLI (`npm run ops -- <command>`): a client of the running server's operator API,
// never a second opener of its database (DESIGN §2).
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { OPERATOR_KEY_FILE } from '../auth/operator-key';

const usage = `Usage: npm run ops -- <command> [options]

Commands:
  care-action --email <address> --caps <n> --description <text> [--key <idempotency key>]
      Credit a care action's CAPs to a member. Re-running with the same --key credits nothing more.

Environment:
  SERVER_URL        the running server (default http://localhost:3000)
  OPERATOR_API_KEY  the operator key (default: read from DATA_DIR/operator-key, DATA_DIR default ./data)`;

async function operatorKey(): Promise<string> {
  if (process.env.OPERATOR_API_KEY) return process.env.OPERATOR_API_KEY;
  const file = path.join(path.resolve(process.env.DATA_DIR ?? './data'), OPERATOR_KEY_FILE);
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    throw new Error(`No OPERATOR_API_KEY and no key file at ${file}. Start the server once, or set OPERATOR_API_KEY.`);
  }
}

async function call(pathname: string, body: unknown): Promise<unknown> {
  const server = (process.env.SERVER_URL ?? 'http://localhost:3000').replace(/\/$/, '');
  let response: Response;
  try {
    response = await fetch(`${server}${pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await operatorKey()}` },
      body: JSON.stringify(body),
    });
  } catch {
    throw new Error(`Could not reach the server at ${server}. Is it running? (SERVER_URL)`);
  }
  const data = (await response.json().catch(() => ({}))) as { message?: string };
  if (!response.ok) throw new Error(`${response.status}: ${data.message ?? 'request refused'}`);
  return data;
}

async function careAction(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { email: { type: 'string' }, caps: { type: 'string' }, description: { type: 'string' }, key: { type: 'string' } } });
  const caps = Number(values.caps);
  if (!values.email || !values.description || !Number.isInteger(caps) || caps <= 0) {
    throw new Error('care-action needs --email, --description and --caps as a positive whole number');
  }
  const idempotencyKey = values.key ?? randomUUID();
  const result = (await call('/api/operator/care-actions', { email: values.email, caps, description: values.description, idempotencyKey })) as { credited: boolean; userId: string };
  console.log(result.credited ? `Credited ${caps} CAPs to ${values.email} (key ${idempotencyKey}).` : `Already credited earlier under key ${idempotencyKey}: nothing changed.`);
}

const [command, ...rest] = process.argv.slice(2);
try {
  if (command === 'care-action') await careAction(rest);
  else {
    console.log(usage);
    process.exitCode = command && command !== 'help' && command !== '--help' ? 1 : 0;
  }
} catch (error) {
  console.error(`ops: ${(error as Error).message}`);
  process.exitCode = 1;
}
