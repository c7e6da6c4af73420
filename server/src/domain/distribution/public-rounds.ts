// Every round on chain, for anyone (GET /api/rounds, the /rounds page; issue 28): each proposal the
// chain follower indexed — this server's and any other — with its root, total, when it was
// proposed and when it pays, its transactions, and what became of it. The members of a round and
// its tree.json are known only for the rounds this server built.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../infra/db/schema';

export type PublicRoundStatus = 'in_review' | 'active' | 'superseded' | 'cancelled';

export async function publicRounds(db: Kysely<DB>, reviewSeconds: number) {
  const [state, rows] = await Promise.all([
    db
      .selectFrom('chain_follower_state')
      .select(['round_index', 'latest_index', 'latest_cancelled'])
      .executeTakeFirst(),
    sql<{
      round_index: number;
      root: string;
      total: string;
      active_at: string | null;
      proposed_tx: string;
      cancelled_tx: string | null;
      members: number | null;
      own_root: string | null;
    }>`
      SELECT p.round_index, p.root, p.amount::text AS total, p.active_at::text, p.tx_hash AS proposed_tx,
             c.tx_hash AS cancelled_tx, r.member_count AS members, r.root AS own_root
        FROM chain_events p
        LEFT JOIN chain_events c ON c.kind = 'root_cancelled' AND c.round_index = p.round_index
        LEFT JOIN distribution_rounds r ON r.round_index = p.round_index
       WHERE p.kind = 'root_proposed'
       ORDER BY p.round_index DESC
       LIMIT 200`.execute(db),
  ]);
  const active = state?.round_index ?? 0;
  return rows.rows.map((row) => {
    const status: PublicRoundStatus =
      row.cancelled_tx !== null
        ? 'cancelled'
        : row.round_index === active
          ? 'active'
          : row.round_index < active
            ? 'superseded'
            : 'in_review';
    const activeAt = row.active_at === null ? null : Number(row.active_at);
    const builtHere = row.own_root === row.root;
    return {
      index: row.round_index,
      root: row.root,
      total: row.total,
      members: builtHere ? row.members : null,
      status,
      proposedAt:
        activeAt === null ? null : new Date((activeAt - reviewSeconds) * 1000).toISOString(),
      activeAt: activeAt === null ? null : new Date(activeAt * 1000).toISOString(),
      proposedTx: row.proposed_tx,
      cancelledTx: row.cancelled_tx,
      builtHere,
      tree: builtHere ? `/api/distributions/${row.round_index}/tree.json` : null,
    };
  });
}
