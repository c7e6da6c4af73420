// The console's overview figures: members, CAPs credited per day by
// kind, REME distributed and claimed, claims per day, and the treasury's, distributor's and
// relayer's balances. Figures over a million members are not added up per request: each process
// keeps a snapshot, computed at most once a minute (OVERVIEW_MAX_AGE_SECONDS). A request gets the
// last snapshot at once and, when it is older than that, starts a refresh in the background; only
// the first request waits for one. The computation itself reads the daily series through indexes
// (profiles_created_idx, reward_ledger's primary key, chain_events' primary key) and counts the
// totals from the narrowest tables that hold them, one statement at a time. chain_events has no
// time: claims are placed in days by each day's first block (DayBlocks), found from the blocks'
// times and kept. Balances are read from the chain within RPC_CALL_TIMEOUT_MS, else null.
import { OVERVIEW_DAYS, type ConsoleOverview, type OverviewCapsByKind } from '@crw/core/console';
import { sql, type Kysely } from 'kysely';
import type { Chain } from '../../infra/chain/chain';
import { requestWithin } from '../../infra/chain/node';
import type { DB } from '../../infra/db/schema';
import type { DayBlocks } from '../indexer/day-blocks';

const DAY_MS = 86_400_000;

/** Where the overview reads from. */
export interface OverviewSources {
  db: Kysely<DB>;
  chain: Chain;
  /** The sponsored-claims relayer's address, when claims are sponsored. */
  relayerAddress: string | null;
  rpcTimeoutMs: number;
  /** The first block the index covers (CHAIN_START_BLOCK). */
  chainStartBlock: number;
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const asNumber = (value: unknown) => Number(value ?? 0);

/** The smallest reward_ledger id from which every row is credited at or after `since`. The table
 * has no index on created_at; ids are given in the order rows are credited, so a binary search
 * over the primary key finds where a day begins (an hour earlier, for transactions that took
 * their id a little after their time; the query filters on created_at as well). */
async function ledgerIdFrom(db: Kysely<DB>, since: Date): Promise<number | null> {
  const bounds = await sql<{ lo: string | number | null; hi: string | number | null }>`
    SELECT min(id) AS lo, max(id) AS hi FROM reward_ledger`.execute(db);
  const { lo, hi } = bounds.rows[0] ?? { lo: null, hi: null };
  if (lo === null || hi === null) return null;
  const target = new Date(since.getTime() - 3_600_000);
  let low = Number(lo);
  let high = Number(hi) + 1; // the answer is in [low, high]; high: no row is recent enough
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    const row = await sql<{ created_at: Date }>`
      SELECT created_at FROM reward_ledger WHERE id >= ${mid} ORDER BY id LIMIT 1`.execute(db);
    const at = row.rows[0]?.created_at;
    if (!at || new Date(at) >= target) high = mid;
    else low = mid + 1;
  }
  return low;
}

const noCaps = (): OverviewCapsByKind => ({
  signup: 0,
  referralLevel1: 0,
  referralLevel2: 0,
  referralLevel3: 0,
  careAction: 0,
});

/** Computes the whole overview now (what a snapshot holds). */
export async function computeOverview(
  sources: OverviewSources,
  dayBlocks: DayBlocks,
  { now = new Date(), onChainError }: { now?: Date; onChainError?: (error: unknown) => void } = {},
): Promise<ConsoleOverview> {
  const { db, chain } = sources;
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const firstDay = today - (OVERVIEW_DAYS - 1) * DAY_MS;
  const since = new Date(firstDay);
  const dates = Array.from({ length: OVERVIEW_DAYS }, (_, i) => utcDay(firstDay + i * DAY_MS));
  const distributor = String(chain.distributor.target).toLowerCase();
  const treasury = chain.operator.address;
  const relayer = sources.relayerAddress;

  const within = (method: string, params: unknown[]) =>
    requestWithin(chain.node, { method, params }, sources.rpcTimeoutMs);
  const ethOf = (address: string) =>
    within('eth_getBalance', [address, 'latest']).then(
      (wei) => BigInt(wei as string).toString(),
      () => null,
    );
  const token = chain.token.interface;
  const remeOf = (address: string) =>
    within('eth_call', [
      { to: String(chain.token.target), data: token.encodeFunctionData('balanceOf', [address]) },
      'latest',
    ]).then(
      (data) => String(token.decodeFunctionResult('balanceOf', data as string)[0]),
      () => null,
    );

  // The chain's answers are awaited alongside; the database's statements run one at a time, so a
  // refresh never takes several of the pool's connections (and their parallel workers) at once.
  const chainReads = Promise.all([
    remeOf(treasury),
    ethOf(treasury),
    remeOf(distributor),
    relayer ? ethOf(relayer) : Promise.resolve(null),
    claimsPerDay(db, dayBlocks, distributor, firstDay, sources.chainStartBlock).catch(
      (error: unknown) => {
        onChainError?.(error);
        return null;
      },
    ),
  ]);
  const counted = await sql<{ members: string | number; confirmed: string | number }>`
    SELECT (SELECT count(*) FROM profiles) AS members,
           (SELECT count(*) FROM "user" WHERE "emailVerified") AS confirmed`.execute(db);
  // What each member was credited, kept per member by credit_reward (migration 0013): one row a
  // member instead of every ledger row.
  const caps = await sql<{ signup: string; referral: string; care: string }>`
    SELECT coalesce(sum(signup_caps), 0)::text AS signup,
           coalesce(sum(rrp_balance), 0)::text AS referral,
           coalesce(sum(activity_caps), 0)::text AS care
      FROM user_token_distributions`.execute(db);
  const joined = await sql<{ day: string; n: string | number }>`
    SELECT to_char((created_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, count(*) AS n
      FROM profiles WHERE created_at >= ${since}
     GROUP BY (created_at AT TIME ZONE 'UTC')::date`.execute(db);
  const from = await ledgerIdFrom(db, since);
  const ledger =
    from === null
      ? { rows: [] }
      : await sql<{
          day: string;
          kind: string;
          level: number | null;
          n: string | number;
          caps: string;
        }>`
          SELECT to_char((created_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, kind, level,
                 count(*) AS n, sum(caps)::text AS caps
            FROM reward_ledger WHERE id >= ${from} AND created_at >= ${since}
           GROUP BY (created_at AT TIME ZONE 'UTC')::date, kind, level`.execute(db);
  const round = await db
    .selectFrom('distribution_rounds')
    .select(['round_index', sql<string>`total::text`.as('total')])
    .where('status', '=', 'published')
    .orderBy('round_index', 'desc')
    .limit(1)
    .executeTakeFirst();
  // The distributor pays out only claims, so what it received less what it holds is what was
  // claimed: two indexed reads instead of adding up every wallet's claimed amount.
  const claimed = await sql<{ claimed: string }>`
    SELECT greatest(
             (SELECT coalesce(sum(amount), 0) FROM chain_events
               WHERE to_address = ${distributor} AND kind = 'transfer')
             - coalesce((SELECT reme_balance FROM chain_wallets WHERE address = ${distributor}), 0),
             0)::text AS claimed`.execute(db);
  const [treasuryReme, treasuryEth, distributorReme, relayerEth, claims] = await chainReads;

  const byDay = new Map(dates.map((date) => [date, { joined: 0, confirmed: 0, caps: noCaps() }]));
  for (const row of joined.rows) {
    const day = byDay.get(row.day);
    if (day) day.joined = asNumber(row.n);
  }
  for (const row of ledger.rows) {
    const day = byDay.get(row.day);
    if (!day) continue;
    const credited = asNumber(row.caps);
    if (row.kind === 'signup') {
      day.caps.signup += credited;
      day.confirmed += asNumber(row.n);
    } else if (row.kind === 'care_action') day.caps.careAction += credited;
    else if (row.kind === 'referral' && row.level === 1) day.caps.referralLevel1 += credited;
    else if (row.kind === 'referral' && row.level === 2) day.caps.referralLevel2 += credited;
    else if (row.kind === 'referral' && row.level === 3) day.caps.referralLevel3 += credited;
  }
  const totalCaps = caps.rows[0] ?? { signup: '0', referral: '0', care: '0' };
  const capsIssued = {
    signup: asNumber(totalCaps.signup),
    referral: asNumber(totalCaps.referral),
    careAction: asNumber(totalCaps.care),
  };
  return {
    asOf: now.toISOString(),
    totals: {
      members: asNumber(counted.rows[0]?.members),
      confirmed: asNumber(counted.rows[0]?.confirmed),
      capsIssued: {
        ...capsIssued,
        total: capsIssued.signup + capsIssued.referral + capsIssued.careAction,
      },
      remeDistributed: round?.total ?? '0',
      latestRound: round?.round_index ?? null,
      remeClaimed: claimed.rows[0]?.claimed ?? '0',
    },
    days: dates.map((date, i) => ({ date, ...byDay.get(date)!, claims: claims?.[i] ?? null })),
    balances: {
      treasuryAddress: treasury,
      treasuryReme,
      treasuryEth,
      distributorAddress: String(chain.distributor.target),
      distributorReme,
      relayerAddress: relayer,
      relayerEth,
    },
  };
}

/** Claims the follower indexed in each day's blocks (OVERVIEW_DAYS counts, oldest first). */
async function claimsPerDay(
  db: Kysely<DB>,
  dayBlocks: DayBlocks,
  distributor: string,
  firstDay: number,
  startBlock: number,
): Promise<number[]> {
  const counts = new Array<number>(OVERVIEW_DAYS).fill(0);
  const state = await db
    .selectFrom('chain_follower_state')
    .select(['block_number', 'block_hash', 'distributor_address'])
    .executeTakeFirst();
  // Nothing indexed yet (or an index of other contracts, about to be rebuilt): no claims seen.
  if (!state || state.block_hash === null || state.distributor_address !== distributor)
    return counts;
  const midnights = Array.from({ length: OVERVIEW_DAYS }, (_, i) => (firstDay + i * DAY_MS) / 1000);
  const firsts = await dayBlocks.firstBlocks(midnights, startBlock, state.block_number);
  const rows = await sql<{ bucket: number; n: string | number }>`
    SELECT width_bucket(block_number, ARRAY[${sql.join(firsts)}]::bigint[]) AS bucket,
           count(*) AS n
      FROM chain_events
     WHERE kind = 'claimed' AND block_number >= ${firsts[0]!} AND block_number <= ${state.block_number}
     GROUP BY 1`.execute(db);
  for (const row of rows.rows) {
    const i = Number(row.bucket) - 1;
    if (i >= 0 && i < OVERVIEW_DAYS) counts[i] = asNumber(row.n);
  }
  return counts;
}
