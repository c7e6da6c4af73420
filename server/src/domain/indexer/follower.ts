// The chain follower: indexes the contracts' events into the database so member reads
// never call the chain. One process leads (leader-lock.ts) and polls every CHAIN_POLL_INTERVAL_MS;
// the others try to take over at the same pace. The embedded chain also syncs after each mined
// transaction, before its send answers, so what a member just did reads back at once.
import type { Log } from '../../logging';
import type { Config } from '../../config';
import type { Database } from '../../infra/db/database';
import { STOP_WAIT_MS } from '../../infra/db/leader-lock';
import { LeaderLoop } from '../../lib/leader-loop';
import { LOCK_KEYS } from '../../infra/db/lock-keys';
import type { Chain } from '../../infra/chain/chain';
import { recordFailure, type RollbackListener } from './follower-store';
import { FollowerOvertaken, syncOnce, type SyncSettings } from './follower-sync';
import { countedNode, type NodeCalls } from '../../infra/chain/node-calls';

export class ChainFollower {
  /** The follower's own calls to the node (also counted in chain.node.calls). */
  readonly calls: NodeCalls;
  readonly #settings: SyncSettings;
  readonly #loop: LeaderLoop;
  readonly #log: Log;
  #failing = false;
  readonly #afterPass: Array<() => void> = [];
  readonly #onRollBack: RollbackListener[] = [];

  constructor(config: Config, database: Database, chain: Chain, log: Log) {
    const node = countedNode(chain.node);
    this.calls = node.calls;
    this.#log = log;
    this.#loop = new LeaderLoop({
      lock: database.leaderLock(LOCK_KEYS.chainFollower),
      onLead: () => log.info('chain follower: this process leads'),
      pass: () => this.#sync(),
      waitMs: () => config.CHAIN_POLL_INTERVAL_MS,
      // A hung node must not hold up a shutdown; a pass finishing later cannot record twice.
      stopWaitMs: STOP_WAIT_MS,
    });
    this.#settings = {
      db: database.db,
      node,
      chain: {
        chainId: chain.chainId,
        token: String(chain.token.target).toLowerCase(),
        distributor: String(chain.distributor.target).toLowerCase(),
      },
      confirmations: config.chainConfirmations,
      startBlock: config.CHAIN_START_BLOCK,
      log,
      onRollBack: async (trx, vanished) => {
        for (const listener of this.#onRollBack) await listener(trx, vanished);
      },
    };
    chain.node.onMined?.(() => this.syncNow());
  }

  /** `listener` runs after each pass this process makes, whether it reached the node or not. */
  afterPass(listener: () => void): void {
    this.#afterPass.push(listener);
  }

  /** `listener` is told, inside the rollback's transaction, what a reorganisation took from the
   * index (the `Claimed` events the chain no longer has), so whoever relied on them can undo. */
  onRollBack(listener: RollbackListener): void {
    this.#onRollBack.push(listener);
  }

  /** True while this process leads (and so is the one that follows the chain). */
  get leading(): boolean {
    return this.#loop.leading;
  }

  /** Tries to lead and follows once, then keeps polling. Resolves after that first attempt. */
  async start(): Promise<void> {
    await this.#loop.start();
  }

  /** A sync that starts after this call (one already waiting is shared) if this process leads;
   * never rejects. */
  syncNow(): Promise<void> {
    if (!this.#loop.leading) return Promise.resolve();
    return this.#loop.runNow();
  }

  /** Stops polling and lets the lock go, after the pass under way (at most STOP_WAIT_MS). */
  async stop(): Promise<void> {
    await this.#loop.stop();
  }

  async #sync(): Promise<void> {
    try {
      await syncOnce(this.#settings);
      if (this.#failing) this.#log.info('chain follower: following again');
      this.#failing = false;
    } catch (error) {
      if (error instanceof FollowerOvertaken) {
        this.#log.warn(
          { err: error },
          'chain follower: another process wrote first; this pass stopped',
        );
        return;
      }
      if (!this.#failing)
        this.#log.warn(
          { err: error },
          'chain follower: a pass failed; members see the last figures, marked with their block and age',
        );
      this.#failing = true;
      await recordFailure(this.#settings.db, (error as Error).message).catch(() => undefined);
    } finally {
      for (const listener of this.#afterPass) listener();
    }
  }
}
