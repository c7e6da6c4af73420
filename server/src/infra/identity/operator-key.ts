// The operator API key: OPERATOR_API_KEY, or in the embedded default one made at first start and
// kept in DATA_DIR/operator-key, where the CLI on the same machine finds it.
import type { Config } from '../../config';
import { keyFromFile } from '../../key-file';

/** The file under DATA_DIR that holds the embedded default's key (the CLI reads it too). */
export const OPERATOR_KEY_FILE = 'operator-key';

export async function operatorApiKey(config: Config): Promise<string> {
  return config.OPERATOR_API_KEY ?? keyFromFile(config.dataDir, OPERATOR_KEY_FILE);
}

/** The file under DATA_DIR with the embedded default's sister-app client secret. */
export const COMMUNITY_APP_SECRET_FILE = 'community-app-secret';

/** The secret the sister app presents to redeem hand-off codes (COMMUNITY_APP_CLIENT_SECRET). */
export async function communityAppSecret(config: Config): Promise<string> {
  return (
    config.COMMUNITY_APP_CLIENT_SECRET ?? keyFromFile(config.dataDir, COMMUNITY_APP_SECRET_FILE)
  );
}
