// The operator API key: OPERATOR_API_KEY, or in the embedded default one made at first start and
// kept in DATA_DIR/operator-key, where the CLI on the same machine finds it (DESIGN §2).
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../app-error';
import type { Config } from '../config';
import { keyFromFile } from '../key-file';

/** The file under DATA_DIR that holds the embedded default's key (the CLI reads it too). */
export const OPERATOR_KEY_FILE = 'operator-key';

export async function operatorApiKey(config: Config): Promise<string> {
  return config.OPERATOR_API_KEY ?? keyFromFile(config.dataDir, OPERATOR_KEY_FILE);
}

/** 401 unless the request carries `Authorization: Bearer <operator key>`. */
export function requireOperator(request: FastifyRequest, key: string): void {
  const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
  const a = Buffer.from(given);
  const b = Buffer.from(key);
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw new AppError(401, 'invalid_api_key');
}
