// `ops verify-round` (issue 28): anyone's check of a published round from the service's public
// address and the chain alone. A good round checks out; a tree.json changed after it was built,
// one rebuilt around other amounts (a root the chain never published) and a round not published
// are each a mismatch, said
// plainly, and the command exits non-zero. (A distributor holding less than its unclaimed leaves
// can draw is checked too; this chain offers no way to take REME out of it to show that failing.)
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { LEAF_ENCODING } from '@crw/core';
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyRound } from '../src/cli/verify-round';
import { cloneMemberKeys, joinAndConfirm, makeMemberKeys } from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

const repoRoot = path.resolve(import.meta.dirname, '../..');
let t: TestApp;
let url: string;
const dir = mkdtempSync(path.join(tmpdir(), 'crw-verify-'));

interface Dump {
  format: string;
  leafEncoding: string[];
  tree: string[];
  values: Array<{ value: [string, string]; treeIndex: number }>;
}

beforeAll(async () => {
  t = await buildTestApp();
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = await makeMemberKeys();
  await joinAndConfirm(t.app, t.services.database.db, base);
  await joinAndConfirm(t.app, t.services.database.db, await cloneMemberKeys(base));
  const published = await t.app.inject({
    method: 'POST',
    url: '/api/operator/distributions',
    headers: { authorization: `Bearer ${t.services.operatorKey}` },
  });
  expect(published.statusCode, published.body).toBe(200);
  expect(published.json()).toMatchObject({ index: 1, outcome: 'published', members: 2 });
}, 120_000);
afterAll(() => t?.close());

async function publicTree(): Promise<Dump> {
  const res = await fetch(`${url}/api/distributions/1/tree.json`);
  expect(res.status).toBe(200);
  return (await res.json()) as Dump;
}

function saved(name: string, dump: unknown): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(dump));
  return file;
}

/** The CLI as a member or auditor runs it: only the public address, no key, no DATA_DIR. */
async function cli(...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'server/src/cli/ops.ts', 'verify-round', ...args],
      { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', SERVER_URL: url, DATA_DIR: dir } },
    );
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}

describe(`ops verify-round (${testDbKind})`, () => {
  it('a good round checks out: its tree holds together, its root and total are the chain’s, and the distributor can pay it', async () => {
    const check = await verifyRound({ url, index: 1 });
    expect(check.problems).toEqual([]);
    expect(check.ok).toBe(true);
    expect(check.lines.join('\n')).toMatch(/tree\.json holds together: 2 members, 400\.00 REME/);
    expect(check.lines.join('\n')).toContain("The chain's root for round 1 is the same.");
    expect(check.lines.join('\n')).toMatch(/The distributor holds [\d,.]+ REME, enough for/);
    const run = await cli('1');
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain('Round 1 checks out.');
  });

  it('a tree.json changed after it was built (an amount raised, the hashes left) does not check out', async () => {
    const dump = await publicTree();
    dump.values[0]!.value[1] = (BigInt(dump.values[0]!.value[1]) + 1n).toString();
    const file = saved('tampered.json', dump);
    const check = await verifyRound({ url, index: 1, tree: file });
    expect(check.ok).toBe(false);
    expect(check.problems.join('\n')).toContain('tree.json does not hold together');
    const run = await cli('1', '--tree', file);
    expect(run.code).toBe(1);
    expect(run.out).toContain('MISMATCH: tree.json does not hold together');
    expect(run.out).toContain('Round 1 does NOT check out');
  });

  it('a tree rebuilt around other amounts holds together but is not the root the chain published', async () => {
    const dump = await publicTree();
    const values = dump.values.map((v) => v.value);
    values[1] = [values[1]![0], (BigInt(values[1]![1]) * 2n).toString()];
    const file = saved('other-root.json', StandardMerkleTree.of(values, [...LEAF_ENCODING]).dump());
    const check = await verifyRound({ url, index: 1, tree: file });
    expect(check.ok).toBe(false);
    expect(check.problems.join('\n')).toMatch(
      /The chain's root for round 1 is 0x[0-9a-f]{64}; tree\.json's is 0x/,
    );
    expect(check.problems.join('\n')).toMatch(/its leaves add up to 600\.00 REME/);
    const run = await cli('1', '--tree', file);
    expect(run.code).toBe(1);
    expect(run.out).toContain("MISMATCH: The chain's root for round 1");
  });

  it('a round that was never published, a file that is not a tree, and a wrong round number are said as such', async () => {
    expect((await verifyRound({ url, index: 5 })).problems).toEqual([
      `Round 5 is not published at ${url}.`,
    ]);
    const notATree = saved('not-a-tree.json', { hello: 'world' });
    expect((await verifyRound({ url, index: 1, tree: notATree })).problems).toEqual([
      'tree.json is not an OpenZeppelin standard-v1 tree.',
    ]);
    const later = saved('later.json', await publicTree());
    expect((await verifyRound({ url, index: 3, tree: later })).problems).toEqual([
      'Round 3 is not on chain: the newest round proposed is 1.',
    ]);
    const run = await cli('zero');
    expect(run.code).toBe(1);
    expect(run.out).toContain('verify-round needs a round number');
  });
});
