// A distribution round for 100,000 and 1,000,000 members, end to end, the way `npm run ops --
// distribute --publish` runs it: members with wallets and entitlements are seeded in PostgreSQL
// (not timed), then publishRound reads every entitlement, builds the tree (our StandardMerkleTree-
// identical builder), stores the nodes and every member's leaf, and publishes the root on the
// embedded chain. Afterwards every member's proof is derived from the stored nodes, a sample of
// proofs served by getClaimData is checked with @openzeppelin/merkle-tree against the root read
// from the chain, and a few of them are claimed on chain.
// Each phase of the round is timed (entitlements read, leaves hashed and sorted, leaves stored
// while the inner nodes are hashed, nodes stored, commit, root published) and the process's peak
// memory during the round is printed beside it: the largest resident set sampled every 10 ms and at
// each phase's end (a timer cannot fire while the tree is hashed, so the process's own high-water
// mark, resourceUsage().maxRSS, is printed too).
// Usage: DATABASE_URL=postgres://… npm run bench:distribute [-- 100000 1000000]; --smoke: 1,000
// members, 20 proofs checked.
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { LEAF_ENCODING, proofAt } from '@crw/core';
import type { Contract } from 'ethers';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { openChain } from '@crw/server/infra/chain/chain';
import type { Config } from '@crw/server/config';
import { openDatabase } from '@crw/server/infra/db/database';
import { setUpSchema } from '@crw/server/setup-schema';
import { claimData } from '@crw/server/domain/distribution/claims';
import { publishRound, type RoundPhase } from '@crw/server/domain/distribution/rounds';
import { createPostgresDatabase } from '@crw/server/testing/database';
import { sized } from './lib/harness';
import { memberCounts, seconds, seedMembers } from './lib/seed';

const sizes = await memberCounts([100_000, 1_000_000]);
const SAMPLE = sized(200, 20);
const CLAIMS = 3;
const silent = { info() {}, warn() {}, error() {}, debug() {} } as unknown as FastifyBaseLogger;

for (const size of sizes) {
  const created = await createPostgresDatabase();
  const database = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 4 });
  try {
    await setUpSchema(database);
    let t = performance.now();
    await seedMembers(database.db, size);
    const seedMs = performance.now() - t;
    const chain = await openChain(
      { dataDir: mkdtempSync(path.join(tmpdir(), 'crw-bench-')) } as Config,
      database,
      silent,
    );

    const marks: Partial<Record<RoundPhase | 'prepared', number>> = {};
    const memory = peakMemory();
    t = performance.now();
    const published = await publishRound(
      database.db,
      chain,
      (step) => {
        if (step === 'prepared') marks.prepared = performance.now() - t;
      },
      (phase) => {
        marks[phase] = performance.now() - t;
        memory.sample();
      },
    );
    const endToEndMs = performance.now() - t;
    const peakRss = memory.stop();

    t = performance.now();
    const { nodes } = await database.db
      .selectFrom('distribution_rounds')
      .select('nodes')
      .where('round_index', '=', 1)
      .executeTakeFirstOrThrow();
    let proofHashes = 0;
    for (let index = size - 1; index < 2 * size - 1; index++)
      proofHashes += proofAt(nodes, index).length;
    const proofsMs = performance.now() - t;

    const onChainRoot = (await chain.distributor.getFunction('merkleRoot')()) as string;
    const sample = await database.db
      .selectFrom('distribution_entries')
      .select(['user_id', 'wallet_address', 'cumulative_amount'])
      .where('round_index', '=', 1)
      .where(
        'user_id',
        'in',
        Array.from({ length: SAMPLE }, (_, k) => memberId(1 + Math.floor((k * size) / SAMPLE))),
      )
      .execute();
    let verified = 0;
    let claimedOk = 0;
    for (const [k, entry] of sample.entries()) {
      const data = await claimData(database.db, 1, entry.user_id);
      if (
        StandardMerkleTree.verify(
          onChainRoot,
          [...LEAF_ENCODING],
          [entry.wallet_address, entry.cumulative_amount],
          data.proof,
        )
      )
        verified++;
      if (k < CLAIMS) {
        // Anyone may claim on a member's behalf; the tokens go to the member's wallet.
        await (
          await (chain.distributor as Contract).getFunction('claim')(
            entry.wallet_address,
            entry.cumulative_amount,
            data.proof,
            1,
          )
        ).wait();
        if (
          (await chain.token.getFunction('balanceOf')(entry.wallet_address)) ===
          BigInt(entry.cumulative_amount)
        )
          claimedOk++;
      }
    }
    const stored = await sql<{
      bytes: string;
    }>`SELECT octet_length(nodes) AS bytes FROM distribution_rounds WHERE round_index = 1`.execute(
      database.db,
    );
    const phases: [string, RoundPhase | 'prepared'][] = [
      ['entitlements read', 'entitlements'],
      ['leaves hashed and sorted', 'tree'],
      [
        `${published.members.toLocaleString('en')} leaves stored (inner nodes hashed meanwhile)`,
        'leaves',
      ],
      ['nodes stored', 'nodes'],
      ['committed', 'commit'],
      ['round read back', 'prepared'],
    ];
    let before = 0;
    const steps = phases.map(([label, phase]) => {
      const at = marks[phase] ?? NaN;
      const step = `${label} ${seconds(at - before)}`;
      before = at;
      return step;
    });
    steps.push(`root published on chain ${seconds(endToEndMs - before)}`);
    console.log(
      `${size.toLocaleString('en')} members (seeded in ${seconds(seedMs)}): round published end to end in ${seconds(endToEndMs)}, ` +
        `peak RSS ${mb(peakRss)} (process max ${mb(process.resourceUsage().maxRSS * 1024)}) ` +
        `[${steps.join(', ')}]; load ${loadavg()[0]!.toFixed(2)}; stored nodes ${(Number(stored.rows[0]!.bytes) / 1e6).toFixed(1)} MB; ` +
        `every proof derived from the stored nodes in ${seconds(proofsMs)} (${proofHashes.toLocaleString('en')} hashes); ` +
        `served proofs verified by @openzeppelin/merkle-tree against the chain's root: ${verified}/${sample.length}; claimed on chain: ${claimedOk}/${CLAIMS}`,
    );
  } finally {
    await database.close();
    await created.drop();
  }
}

/** The largest resident set seen from now until stop(): sampled every 10 ms and at each sample(). */
function peakMemory() {
  let peak = process.memoryUsage.rss();
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage.rss());
  };
  const timer = setInterval(sample, 10);
  return {
    sample,
    stop: () => {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

function mb(bytes: number): string {
  return `${Math.round(bytes / 2 ** 20).toLocaleString('en')} MB`;
}

function memberId(i: number): string {
  return `user-${String(i).padStart(8, '0')}`;
}
