// The operator API key: OPERATOR_API_KEY, or in the embedded default one made at first start and
// kept in DATA_DIR/operator-key, where the CLI on the same machine finds it (DESIGN §2).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../app-error';
import type { Config } from '../config';

export const operatorKeyFile = (dataDir: string) => path.join(dataDir, 'operator-key');

export async function operatorApiKey(config: Config): Promise<string> {
  if (config.OPERATOR_API_KEY) return config.OPERATOR_API_KEY;
  const file = operatorKeyFile(config.dataDir);
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    await mkdir(config.dataDir, { recursive: true });
    await writeFile(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' }).catch(() => undefined);
    return (await readFile(file, 'utf8')).trim();
  }
}

/** 401 unless the request carries `Authorization: Bearer <operator key>`. */
export function requireOperator(request: FastifyRequest, key: string): void {
  const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
  const a = Buffer.from(given);
  const b = Buffer.from(key);
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw new AppError(401, 'invalid_api_key');
}
