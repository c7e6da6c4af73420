// How a round's tree and leaves are stored (docs/decisions/0024-million-member-round.md): the
// leaves go in by COPY on both databases, the foreign key to the round is gone (a trigger deletes a
// deleted round's leaves), and what is served from the stored tree is what OpenZeppelin's
// StandardMerkleTree makes of the same values: every served proof verifies against the chain's
// root, and tree.json loads, validates and gives the same proof for every leaf.
import { LEAF_ENCODING, proofAt } from '@crw/core';
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimData } from '../src/domain/distribution/claims';
import { publishRound } from '../src/domain/distribution/rounds';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

// Not a power of two, so leaves sit at two depths of the tree.
const MEMBERS = 1_500;
// Ids that COPY's text format must escape: a backslash, a tab, a newline, a carriage return.
const ODD_IDS = ['odd\\back\\slash', 'odd\ttab', 'odd\nnewline', 'odd\rreturn'];

let t: TestApp;
const db = () => t.services.database.db;

async function seed(ids: string[]) {
  const list = sql`SELECT id, ordinality AS i FROM unnest(${ids}::text[]) WITH ORDINALITY AS s(id)`;
  await sql`INSERT INTO "user" (id, name, email, "emailVerified", "createdAt", "updatedAt")
            SELECT id, 'Member ' || i, 'storage-' || i || '@example.test', true, now(), now()
            FROM (${list}) s`.execute(db());
  await sql`INSERT INTO profiles (id, username, email)
            SELECT id, 'storage' || i, 'storage-' || i || '@example.test' FROM (${list}) s`.execute(
    db(),
  );
  await sql`INSERT INTO user_wallets (user_id, wallet_address, encrypted_wallet)
            SELECT id, '0x' || md5(id) || substr(md5('w' || id), 1, 8), '{}' FROM (${list}) s`.execute(
    db(),
  );
  await sql`INSERT INTO user_token_distributions (user_id, signup_tokens)
            SELECT id, (200 + (i % 7) * 25) * 10::numeric ^ 18 FROM (${list}) s`.execute(db());
}

beforeAll(async () => {
  t = await buildTestApp();
  await seed([
    ...Array.from({ length: MEMBERS }, (_, i) => `storage-${String(i).padStart(5, '0')}`),
    ...ODD_IDS,
  ]);
}, 60_000);
afterAll(() => t?.close());

describe(`a round's stored tree and leaves (${testDbKind})`, () => {
  it('serves proofs and a tree.json that @openzeppelin/merkle-tree accepts against the chain', async () => {
    const published = await publishRound(db(), t.services.chain);
    expect(published).toMatchObject({ index: 1, outcome: 'published', members: MEMBERS + 4 });
    const root = (await t.services.chain.distributor.getFunction('merkleRoot')()) as string;
    expect(published.root).toBe(root);

    const entries = await db()
      .selectFrom('distribution_entries')
      .select(['user_id', 'wallet_address', 'cumulative_amount', 'tree_index'])
      .where('round_index', '=', 1)
      .orderBy('user_id')
      .execute();
    expect(entries).toHaveLength(MEMBERS + 4);
    expect(entries.map((e) => e.user_id)).toEqual(expect.arrayContaining(ODD_IDS));
    const amounts = await db()
      .selectFrom('user_token_distributions')
      .select(['user_id', 'signup_tokens'])
      .execute();
    const amountOf = new Map(amounts.map((a) => [a.user_id, a.signup_tokens]));
    for (const entry of entries) expect(entry.cumulative_amount).toBe(amountOf.get(entry.user_id));

    const dump = await t.app.inject({ method: 'GET', url: '/api/distributions/1/tree.json' });
    expect(dump.statusCode).toBe(200);
    const json = dump.json();
    expect(json.leafEncoding).toEqual([...LEAF_ENCODING]);
    const tree = StandardMerkleTree.load<[string, string]>(json);
    tree.validate();
    expect(tree.root).toBe(root);

    const { nodes } = await db()
      .selectFrom('distribution_rounds')
      .select('nodes')
      .where('round_index', '=', 1)
      .executeTakeFirstOrThrow();
    const byIndex = new Map(entries.map((e) => [e.tree_index, e]));
    let checked = 0;
    for (const [i, [address, amount]] of tree.entries()) {
      const treeIndex = json.values[i].treeIndex as number;
      const entry = byIndex.get(treeIndex)!;
      expect([entry.wallet_address, entry.cumulative_amount]).toEqual([address, amount]);
      const proof = tree.getProof(i);
      expect(proofAt(nodes, treeIndex)).toEqual(proof);
      expect(StandardMerkleTree.verify(root, [...LEAF_ENCODING], [address, amount], proof)).toBe(
        true,
      );
      checked++;
    }
    expect(checked).toBe(MEMBERS + 4);

    // Served proofs (GET /api/claim's), for the odd ids and a sample of the others.
    for (const entry of entries.filter((e, k) => k % 97 === 0 || ODD_IDS.includes(e.user_id))) {
      const data = await claimData(db(), 1, entry.user_id);
      expect(data.distributedTokens).toBe(entry.cumulative_amount);
      expect(
        StandardMerkleTree.verify(
          root,
          [...LEAF_ENCODING],
          [entry.wallet_address, entry.cumulative_amount],
          data.proof,
        ),
      ).toBe(true);
    }
  });

  it("deleting a round deletes its leaves, as the foreign key's cascade did", async () => {
    const count = async (index: number) =>
      Number(
        (
          await db()
            .selectFrom('distribution_entries')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('round_index', '=', index)
            .executeTakeFirstOrThrow()
        ).n,
      );
    // A second round's rows, as prepareRound stores them, then deleted (dropped-rounds.ts).
    await sql`INSERT INTO distribution_rounds (round_index, root, total, member_count, nodes)
              SELECT 2, root, total, member_count, nodes FROM distribution_rounds WHERE round_index = 1`.execute(
      db(),
    );
    await sql`INSERT INTO distribution_entries
              SELECT 2, user_id, wallet_address, cumulative_amount, tree_index
              FROM distribution_entries WHERE round_index = 1`.execute(db());
    expect(await count(2)).toBe(MEMBERS + 4);
    await db().deleteFrom('distribution_rounds').where('round_index', '=', 2).execute();
    expect(await count(2)).toBe(0);
    expect(await count(1)).toBe(MEMBERS + 4);
  });
});
