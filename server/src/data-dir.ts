// DATA_DIR holds the database files and the keys, so only the server's user may enter it. PGlite
// sets modes of its own (0666 for the files of a new database, 0644 for a cache file it rewrites at
// every start), whatever the umask: the server checks and corrects them when it starts.
import { chmod, lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

/** Sets `dir` and every folder in it to 0700 and every file to 0600 (symbolic links are left
 * alone); returns what it changed, relative to `dir`. A missing `dir` changes nothing. */
export async function makePrivate(dir: string): Promise<string[]> {
  const changed: string[] = [];
  const visit = async (target: string): Promise<void> => {
    const stats = await lstat(target);
    if (stats.isSymbolicLink()) return;
    const wanted = stats.isDirectory() ? 0o700 : 0o600;
    // A folder is closed before its contents are visited, so nothing stays reachable meanwhile.
    if ((stats.mode & 0o777) !== wanted) {
      await chmod(target, wanted);
      changed.push(path.relative(dir, target) || '.');
    }
    if (stats.isDirectory())
      for (const name of await readdir(target)) await visit(path.join(target, name));
  };
  try {
    await visit(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || changed.length > 0) throw error;
  }
  return changed;
}
