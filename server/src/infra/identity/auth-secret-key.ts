// The key that signs sessions and e-mail tokens: AUTH_SECRET, or in the embedded default one kept
// in DATA_DIR/auth-secret (so restarts keep everyone signed in).
import type { Config } from '../../config';
import { keyFromFile } from '../../key-file';

export async function authSigningKey(config: Config): Promise<string> {
  return config.AUTH_SECRET ?? keyFromFile(config.dataDir, 'auth-secret');
}
