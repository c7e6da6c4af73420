// Which blocks each UTC day holds, from the blocks' times: chain_events has no time, so the
// console counts claims per day by these block ranges.
import { toQuantity } from 'ethers';
import { sql, type Kysely } from 'kysely';
import { requestWithin, type ChainNode } from '../../infra/chain/node';
import type { DB } from '../../infra/db/schema';

/** Block times read from the chain per refresh at most; what is found is kept for the next. */
const BLOCK_PROBES_PER_REFRESH = 400;

/**
 * The first block at or after each UTC midnight, found by searching the blocks' times and kept:
 * once a midnight is behind the indexed blocks, its first block does not change (short reorgs
 * aside). chain_events has no time, so claims are counted per day by these block ranges.
 */
export class DayBlocks {
  readonly #firsts = new Map<number, number>();
  readonly #times = new Map<number, number>();

  /** `timeOf(n)`: block n's time (unix seconds, never less than an earlier block's). */
  constructor(private readonly timeOf: (block: number) => Promise<number>) {}

  async #time(block: number, budget: { probes: number }): Promise<number> {
    const known = this.#times.get(block);
    if (known !== undefined) return known;
    if (--budget.probes < 0) throw new Error('too many block reads for one refresh');
    const time = await this.timeOf(block);
    if (this.#times.size > 5_000) this.#times.clear();
    this.#times.set(block, time);
    return time;
  }

  /**
   * For each of `midnights` (unix seconds, ascending), the first of blocks `start`..`last` whose
   * time is at or after it; `last + 1` for a midnight after block `last`.
   */
  async firstBlocks(midnights: number[], start: number, last: number): Promise<number[]> {
    const budget = { probes: BLOCK_PROBES_PER_REFRESH };
    const startTime = await this.#time(start, budget);
    const lastTime = await this.#time(last, budget);
    const firsts: number[] = [];
    for (const midnight of midnights) {
      const kept = this.#firsts.get(midnight);
      if (kept !== undefined && kept <= last) {
        firsts.push(kept);
        continue;
      }
      if (startTime >= midnight) firsts.push(start);
      else if (lastTime < midnight) firsts.push(last + 1);
      else {
        const first = await this.#search(midnight, start, startTime, last, lastTime, budget);
        this.#firsts.set(midnight, first);
        firsts.push(first);
      }
    }
    return firsts;
  }

  /** The first block whose time is ≥ `target`, given time(lo) < target ≤ time(hi). */
  async #search(
    target: number,
    lo: number,
    loTime: number,
    hi: number,
    hiTime: number,
    budget: { probes: number },
  ): Promise<number> {
    // Start from the tightest bracket among the blocks already read.
    for (const [block, time] of this.#times) {
      if (block > lo && block < hi) {
        if (time < target) [lo, loTime] = [block, time];
        else [hi, hiTime] = [block, time];
      }
    }
    // Interpolation (block times are nearly regular on a public chain), every third step a halving
    // so that an irregular chain still takes no more than about twice a binary search.
    for (let step = 0; hi - lo > 1; step++) {
      const guess =
        step % 3 === 2 || hiTime <= loTime
          ? Math.floor((lo + hi) / 2)
          : lo + Math.round(((target - loTime) / (hiTime - loTime)) * (hi - lo));
      const mid = Math.min(hi - 1, Math.max(lo + 1, guess));
      const time = await this.#time(mid, budget);
      if (time >= target) [hi, hiTime] = [mid, time];
      else [lo, loTime] = [mid, time];
    }
    return hi;
  }
}

/** A block's time as the chain gives it (unix seconds), within the RPC timeout. */
export const blockTime = (node: ChainNode, timeoutMs: number) => async (block: number) => {
  const found = (await requestWithin(
    node,
    { method: 'eth_getBlockByNumber', params: [toQuantity(block), false] },
    timeoutMs,
  )) as { timestamp: string } | null;
  if (!found) throw new Error(`the chain has no block ${block}`);
  return Number(found.timestamp);
};

/** The embedded chain's clock starts at its fixed genesis date (dev-chain.ts), not today's, so its
 * blocks are placed in time by when they were journaled (each automined block holds one
 * transaction); a block before the first journaled one counts as long ago. */
export const journalTime = (db: Kysely<DB>) => async (block: number) => {
  const row = await sql<{ t: string | number }>`
    SELECT floor(extract(epoch FROM created_at)) AS t FROM chain_journal
     WHERE block_number <= ${block} ORDER BY seq DESC LIMIT 1`.execute(db);
  return Number(row.rows[0]?.t ?? 0);
};
