// Checks the funding invariant after the chain index moves (in the process that follows the chain)
// and alerts when the distributor holds less than its round owes: an error in the log, repeated
// hourly while it lasts, and the figures in /metrics. A check reads every leaf of the round, so at
// a million members it runs at most once per twenty times its own duration, except right after a
// new round is indexed, which is always checked.
import type { Kysely } from 'kysely';
import type { BaseLogger } from 'pino';

type Log = Pick<BaseLogger, 'error' | 'info' | 'warn'>;
import { formatUnits } from 'ethers';
import type { DB } from '../../infra/db/schema';
import { measureFunding, recordFunding, type FundingStatus } from './funding';

const ALERT_EVERY_MS = 60 * 60 * 1000;
const CHECK_SHARE = 20;

export class FundingWatch {
  #last: FundingStatus | null = null;
  #checkedAt = 0;
  #lastDurationMs = 0;
  #alertedAt = 0;
  #running: Promise<void> | undefined;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly log: Log,
    private readonly now: () => number = Date.now,
  ) {}

  /** After each pass of the chain follower: checks again if the index moved and it is time. */
  afterIndexed(): void {
    this.#running ??= this.#check().finally(() => (this.#running = undefined));
  }

  /** Waits for a check under way (tests, shutdown). */
  async settled(): Promise<void> {
    await this.#running;
  }

  async #check(): Promise<void> {
    try {
      const indexed = await this.db
        .selectFrom('chain_follower_state')
        .select(['block_number', 'round_index'])
        .executeTakeFirst();
      const last = this.#last;
      if (!indexed || Number(indexed.block_number) === last?.blockNumber) return;
      const started = this.now();
      const due =
        last === null ||
        last.shortfall > 0n ||
        indexed.round_index !== last.round ||
        started - this.#checkedAt >= this.#lastDurationMs * CHECK_SHARE;
      if (!due) return;
      const status = await measureFunding(this.db);
      if (!status) return;
      await recordFunding(this.db, status);
      this.#lastDurationMs = this.now() - started;
      this.#checkedAt = started;
      this.#report(status);
      this.#last = status;
    } catch (error) {
      this.log.warn({ err: error }, 'funding check: could not read the chain index');
    }
  }

  #report(status: FundingStatus): void {
    const previous = this.#last;
    if (status.shortfall === 0n) {
      if (previous && previous.shortfall > 0n)
        this.log.info({ round: status.round }, 'funding check: the distributor is funded again');
      return;
    }
    const changed = previous?.shortfall !== status.shortfall;
    if (!changed && this.now() - this.#alertedAt < ALERT_EVERY_MS) return;
    this.#alertedAt = this.now();
    this.log.error(
      {
        round: status.round,
        block: status.blockNumber,
        balance: status.balance.toString(),
        owed: status.owed.toString(),
        shortfall: status.shortfall.toString(),
      },
      `funding check: the distributor holds ${formatUnits(status.balance, 18)} REME but round ${status.round} owes ${formatUnits(status.owed, 18)}; members who claim last would find nothing left. Send the ${formatUnits(status.shortfall, 18)} REME missing with: npm run ops -- fund-distributor`,
    );
  }
}
