// A distribution round for 100,000 and 1,000,000 members on PostgreSQL: build the tree (our
// StandardMerkleTree-identical builder), store the round's nodes and every member's leaf, then
// read proofs back for a sample and check them against @openzeppelin/merkle-tree's verifier.
// Usage: DATABASE_URL=postgres://… npm run bench:distribute [-- 100000 1000000]
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { LEAF_ENCODING, buildTree, proofAt } from '@crw/core';
import { getAddress, hexlify, randomBytes } from 'ethers';
import { openDatabase } from '../server/src/db/database';
import { setUpSchema } from '../server/src/db/setup';
import { claimData } from '../server/src/distribution/claims';
import { prepareRound } from '../server/src/distribution/rounds';
import type { MemberEntitlement } from '../server/src/distribution/entitlements';
import { createPostgresDatabase } from '../server/test/helpers/test-database';

process.env.TEST_DATABASE_URL ??= process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const sizes = process.argv.slice(2).map(Number).filter(Boolean);

for (const size of sizes.length ? sizes : [100_000, 1_000_000]) {
  const created = await createPostgresDatabase();
  const database = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 4 });
  try {
    await setUpSchema(database);
    const members: MemberEntitlement[] = Array.from({ length: size }, (_, i) => ({
      userId: `user-${i.toString().padStart(8, '0')}`,
      address: getAddress(hexlify(randomBytes(20))),
      amount: BigInt(200 + (i % 5) * 25) * 10n ** 18n,
      previous: 0n,
    }));

    let t = performance.now();
    const tree = buildTree(members);
    const treeMs = performance.now() - t;
    const proofsStart = performance.now();
    let proofHashes = 0;
    for (let i = 0; i < size; i++) proofHashes += proofAt(tree.nodes, tree.treeIndex[i]!).length;
    const proofsMs = performance.now() - proofsStart;

    t = performance.now();
    const { root } = await prepareRound(database.db, 1, members);
    const endToEndMs = performance.now() - t;

    const sample = Array.from({ length: 200 }, (_, k) => Math.floor((k * size) / 200));
    let ok = 0;
    for (const i of sample) {
      const data = await claimData(database.db, 1, members[i]!.userId);
      if (StandardMerkleTree.verify(root, [...LEAF_ENCODING], [members[i]!.address, members[i]!.amount.toString()], data.proof)) ok++;
    }
    const size_ = await database.db.selectFrom('distribution_rounds').select((eb) => eb.fn('octet_length', ['nodes']).as('bytes')).executeTakeFirstOrThrow();
    console.log(
      `${size.toLocaleString('en')} members: tree ${(treeMs / 1000).toFixed(1)} s; every proof derived ${(proofsMs / 1000).toFixed(1)} s (${proofHashes.toLocaleString('en')} hashes); ` +
        `round end to end (tree + nodes + ${size.toLocaleString('en')} leaves stored) ${(endToEndMs / 1000).toFixed(1)} s; ` +
        `stored nodes ${(Number(size_.bytes) / 1e6).toFixed(1)} MB; sample proofs verified by @openzeppelin/merkle-tree: ${ok}/${sample.length}`,
    );
  } finally {
    await database.close();
    await created.drop();
  }
}
