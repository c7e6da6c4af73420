// `ops verify-round <index>`: anyone's check of a published round, with only the service's public
// address and a chain endpoint — no operator key, no database (issue 28). It reads the round's
// public tree.json, checks that the tree holds together (each node the hash of its children, each
// leaf the hash of its value) and that the same values rebuild the same root, then compares that
// root and the sum of the leaves with what the chain recorded for the round (`roundOf`), and, for the
// active round or the one in review, that the distributor holds what its unclaimed leaves can still
// draw. Every mismatch is a
// problem; the command exits non-zero when there is one (docs/operations.md#checking-a-round).
import { readFile } from 'node:fs/promises';
import { LEAF_ENCODING, formatReme, publicConfigResponse } from '@crw/core';
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { Contract, JsonRpcProvider, getAddress, isAddress } from 'ethers';
import { parseArgs } from 'node:util';

export interface RoundCheck {
  ok: boolean;
  /** What was checked and found right, one line each. */
  lines: string[];
  /** What is wrong, one line each (empty when ok). */
  problems: string[];
}

export interface VerifyRoundOptions {
  /** The service's public address (its /api/config and /api/distributions/:index/tree.json). */
  url: string;
  index: number;
  /** A JSON-RPC endpoint of the chain; default the service's own /rpc. */
  rpc?: string;
  /** A tree.json kept earlier (a file path) instead of the one the service serves now. */
  tree?: string;
}

const DISTRIBUTOR_ABI = [
  'function currentIndex() view returns (uint256)',
  'function totalDistributed() view returns (uint256)',
  'function merkleRoot() view returns (bytes32)',
  'function token() view returns (address)',
  'function claimed(address account) view returns (uint256)',
  'function latestIndex() view returns (uint256)',
  'function roundOf(uint256 index) view returns (bytes32 root, uint256 total, uint256 funded, uint256 activeAt, bool cancelled)',
];
const TOKEN_ABI = ['function balanceOf(address account) view returns (uint256)'];
/** Claims read at once when checking what the unclaimed leaves can still draw. */
const CONCURRENCY = 16;

async function fetchJson(url: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}

const reme = (wei: bigint) => `${formatReme(wei.toString())} REME`;

export async function verifyRound(opts: VerifyRoundOptions): Promise<RoundCheck> {
  const lines: string[] = [];
  const problems: string[] = [];
  const done = (): RoundCheck => ({ ok: problems.length === 0, lines, problems });
  const base = opts.url.replace(/\/+$/, '');

  // The tree: as the service serves it now, or a copy kept earlier.
  let dump: unknown;
  if (opts.tree) {
    try {
      dump = JSON.parse(await readFile(opts.tree, 'utf8'));
    } catch (error) {
      problems.push(`${opts.tree} is not a JSON file: ${(error as Error).message}`);
      return done();
    }
  } else {
    const got = await fetchJson(`${base}/api/distributions/${opts.index}/tree.json`);
    if (got.status === 404) {
      problems.push(`Round ${opts.index} is not published at ${base}.`);
      return done();
    }
    if (got.status !== 200) {
      problems.push(`${base} answered ${got.status} for round ${opts.index}'s tree.json.`);
      return done();
    }
    dump = got.body;
  }
  const shape = dump as { format?: unknown; tree?: unknown; values?: unknown } | null;
  if (
    shape?.format !== 'standard-v1' ||
    !Array.isArray(shape.tree) ||
    !Array.isArray(shape.values)
  ) {
    problems.push('tree.json is not an OpenZeppelin standard-v1 tree.');
    return done();
  }
  let tree: StandardMerkleTree<[string, string]>;
  try {
    // Loading checks each value's leaf is where its index says; validate() checks every node.
    tree = StandardMerkleTree.load<[string, string]>(
      dump as Parameters<typeof StandardMerkleTree.load<[string, string]>>[0],
    );
    tree.validate();
  } catch {
    problems.push(
      'tree.json does not hold together: its hashes are not those of its values (it was changed after it was built).',
    );
    return done();
  }
  const encoding = (dump as { leafEncoding?: unknown }).leafEncoding;
  if (JSON.stringify(encoding) !== JSON.stringify(LEAF_ENCODING))
    problems.push(`tree.json's leaves are ${JSON.stringify(encoding)}, not (address, uint256).`);
  const values = [...tree.entries()].map(([, value]) => value);
  const rebuilt = StandardMerkleTree.of(values, [...LEAF_ENCODING]);
  if (rebuilt.root !== tree.root)
    problems.push(`tree.json's values rebuild the root ${rebuilt.root}, not its ${tree.root}.`);
  const seen = new Set<string>();
  let sum = 0n;
  for (const [account, amount] of values) {
    if (!isAddress(account)) problems.push(`tree.json has a leaf for ${account}, not an address.`);
    else if (seen.has(getAddress(account)))
      problems.push(`tree.json has two leaves for ${getAddress(account)}.`);
    else seen.add(getAddress(account));
    sum += BigInt(amount);
  }
  lines.push(
    `tree.json holds together: ${values.length} members, ${reme(sum)} in all, root ${tree.root}.`,
  );

  // The chain: where the service says its distributor is.
  const config = await fetchJson(`${base}/api/config`);
  const parsed = publicConfigResponse.safeParse(config.body);
  if (config.status !== 200 || !parsed.success) {
    problems.push(`${base}/api/config does not say where the distributor is.`);
    return done();
  }
  const { chainId, distributorAddress } = parsed.data.chain;
  const provider = new JsonRpcProvider(opts.rpc ?? `${base}/rpc`, chainId, { staticNetwork: true });
  try {
    const distributor = new Contract(distributorAddress, DISTRIBUTOR_ABI, provider);
    const current = Number(await distributor.getFunction('currentIndex')());
    const latest = Number(await distributor.getFunction('latestIndex')());
    if (opts.index > latest) {
      problems.push(`Round ${opts.index} is not on chain: the newest round proposed is ${latest}.`);
      return done();
    }
    const [chainRoot, chainTotal, , activeAt, cancelled] = (await distributor.getFunction(
      'roundOf',
    )(opts.index)) as [string, bigint, bigint, bigint, boolean];
    if (cancelled) problems.push(`Round ${opts.index} was cancelled by a guardian: it never paid.`);
    else if (opts.index > current)
      lines.push(
        `Round ${opts.index} is in review: claimable from ${new Date(Number(activeAt) * 1000).toISOString()}.`,
      );
    if (chainRoot.toLowerCase() !== tree.root.toLowerCase())
      problems.push(
        `The chain's root for round ${opts.index} is ${chainRoot}; tree.json's is ${tree.root}.`,
      );
    else lines.push(`The chain's root for round ${opts.index} is the same.`);
    if (chainTotal !== sum)
      problems.push(
        `The chain recorded ${reme(chainTotal)} for round ${opts.index}; its leaves add up to ${reme(sum)}.`,
      );
    else lines.push(`The chain recorded the same total, ${reme(chainTotal)}.`);

    if (!cancelled && opts.index >= current && problems.length === 0) {
      // Every leaf can still draw its cumulative amount less what its account has claimed.
      const token = new Contract(await distributor.getFunction('token')(), TOKEN_ABI, provider);
      const held: bigint = await token.getFunction('balanceOf')(distributorAddress);
      let unclaimed = 0n;
      for (let start = 0; start < values.length; start += CONCURRENCY) {
        const batch = values.slice(start, start + CONCURRENCY);
        const claimed = await Promise.all(
          batch.map(([account]) => distributor.getFunction('claimed')(account) as Promise<bigint>),
        );
        batch.forEach(([, amount], i) => {
          const left = BigInt(amount) - claimed[i]!;
          if (left > 0n) unclaimed += left;
        });
      }
      if (held < unclaimed)
        problems.push(
          `The distributor holds ${reme(held)}; the round's unclaimed leaves can draw ${reme(unclaimed)}.`,
        );
      else
        lines.push(
          `The distributor holds ${reme(held)}, enough for the ${reme(unclaimed)} not claimed yet.`,
        );
    }
  } catch (error) {
    problems.push(`The chain could not be read: ${(error as Error).message}`);
  } finally {
    provider.destroy();
  }
  return done();
}

/** The command: `verify-round <index> [--url <service>] [--rpc <endpoint>] [--tree <file>]`. */
export async function verifyRoundCommand(args: string[], defaultUrl: string): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { url: { type: 'string' }, rpc: { type: 'string' }, tree: { type: 'string' } },
  });
  const index = Number(positionals[0]);
  if (!Number.isInteger(index) || index < 1)
    throw new Error('verify-round needs a round number, e.g. verify-round 4');
  const check = await verifyRound({
    url: values.url ?? defaultUrl,
    index,
    ...(values.rpc ? { rpc: values.rpc } : {}),
    ...(values.tree ? { tree: values.tree } : {}),
  });
  for (const line of check.lines) console.log(line);
  for (const problem of check.problems) console.error(`MISMATCH: ${problem}`);
  console.log(
    check.ok
      ? `Round ${index} checks out.`
      : `Round ${index} does NOT check out (${check.problems.length} problem${check.problems.length === 1 ? '' : 's'}).`,
  );
  if (!check.ok) process.exitCode = 1;
}
