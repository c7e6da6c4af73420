// Streams a round as OpenZeppelin StandardMerkleTree's dump ({format, leafEncoding, tree, values}),
// which `StandardMerkleTree.load()` reads back; a million members never sit in one string.
import { Readable } from 'node:stream';
import { LEAF_ENCODING, bytesToHex } from '@crw/core';
import type { Kysely } from 'kysely';
import type { DB } from '../../infra/db/schema';

const CHUNK = 10_000;

export function treeJson(db: Kysely<DB>, round: number, nodes: Uint8Array): Readable {
  async function* parts(): AsyncGenerator<string> {
    yield `{"format":"standard-v1","leafEncoding":${JSON.stringify(LEAF_ENCODING)},"tree":[`;
    const count = nodes.length / 32;
    for (let start = 0; start < count; start += CHUNK) {
      const end = Math.min(count, start + CHUNK);
      const hexes: string[] = [];
      for (let i = start; i < end; i++)
        hexes.push(`"${bytesToHex(nodes.subarray(i * 32, i * 32 + 32))}"`);
      yield (start > 0 ? ',' : '') + hexes.join(',');
    }
    yield '],"values":[';
    let after = '';
    let first = true;
    for (;;) {
      const rows = await db
        .selectFrom('distribution_entries')
        .select(['user_id', 'wallet_address', 'cumulative_amount', 'tree_index'])
        .where('round_index', '=', round)
        .where('user_id', '>', after)
        .orderBy('user_id')
        .limit(CHUNK)
        .execute();
      if (rows.length === 0) break;
      yield (
        (first ? '' : ',') +
        rows
          .map((r) =>
            JSON.stringify({
              value: [r.wallet_address, r.cumulative_amount],
              treeIndex: r.tree_index,
            }),
          )
          .join(',')
      );
      first = false;
      after = rows[rows.length - 1]!.user_id;
    }
    yield ']}';
  }
  return Readable.from(parts());
}

/** A round's number and stored tree once it is on chain — in review (so anyone can check it
 * before it pays), active, or cancelled — or undefined when no such round was proposed. */
export async function publishedRoundNodes(db: Kysely<DB>, index: number) {
  return db
    .selectFrom('distribution_rounds')
    .select(['round_index', 'nodes'])
    .where('round_index', '=', index)
    .where('status', 'in', ['in_review', 'published', 'cancelled'])
    .executeTakeFirst();
}
