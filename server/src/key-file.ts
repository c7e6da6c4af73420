// A secret the embedded default makes at first start and keeps in DATA_DIR (mode 0600), so
// restarts (and the CLI on the same machine) find the same one. Two starting processes agree: the
// first write wins.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

const randomSecret = () => randomBytes(32).toString('base64url');

/** The secret in DATA_DIR/`name`, made by `make` if the file does not exist yet. */
export async function keyFromFile(
  dataDir: string,
  name: string,
  make: () => string = randomSecret,
): Promise<string> {
  const file = path.join(dataDir, name);
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    await mkdir(dataDir, { recursive: true });
    await writeFile(file, make(), { mode: 0o600, flag: 'wx' }).catch(() => undefined);
    return (await readFile(file, 'utf8')).trim();
  }
}
