// The key that signs sessions and e-mail tokens: AUTH_SECRET, or in the embedded default one made
// at first start and kept in DATA_DIR/auth-secret (so restarts keep everyone signed in).
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config';

export async function authSigningKey(config: Config): Promise<string> {
  if (config.AUTH_SECRET) return config.AUTH_SECRET;
  const file = path.join(config.dataDir, 'auth-secret');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    await mkdir(config.dataDir, { recursive: true });
    const key = randomBytes(32).toString('base64url');
    await writeFile(file, key, { mode: 0o600, flag: 'wx' }).catch(async () => undefined);
    return (await readFile(file, 'utf8')).trim();
  }
}
