// DATA_DIR holds the database files and the keys: another local user must not read them. The real
// server process starts on a real PGlite data folder left open to everyone.
import { chmodSync, lstatSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/infra/db/database';
import { spawnServer, waitForHealthy } from './helpers/server-process';
import { freePort } from './helpers/smtp-peer';
import { fixtureWebDist } from './helpers/test-app';

function walk(dir: string): string[] {
  return [
    dir,
    ...readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
    ),
  ];
}
const modeOf = (p: string) => lstatSync(p).mode & 0o777;
/** Every folder or file another user could enter or read, with its mode. */
const exposed = (dir: string) =>
  walk(dir)
    .filter((p) => modeOf(p) & 0o077)
    .map((p) => `${modeOf(p).toString(8)} ${path.relative(dir, p)}`);

describe('the data folder', () => {
  it('is made private at start (folders 0700, files 0600), and so is every file PGlite writes afterwards', async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'crw-private-')), 'data');
    const earlier = await openDatabase({ kind: 'pglite', dataDir });
    await earlier.close();
    for (const p of walk(dataDir)) chmodSync(p, lstatSync(p).isDirectory() ? 0o755 : 0o666);
    const before = new Set(walk(dataDir));
    expect(exposed(dataDir).length).toBe(before.size);

    const server = spawnServer({
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      WEB_DIST_DIR: fixtureWebDist(),
    });
    try {
      await waitForHealthy(server);
      expect(exposed(dataDir)).toEqual([]);
      expect(server.output()).toMatch(/DATA_DIR was open to other local users/);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const written = walk(dataDir).filter((p) => !before.has(p));
    expect(written.length).toBeGreaterThan(0); // the schema, the keys and the chain's journal
    expect(exposed(dataDir)).toEqual([]);
  });
});
