// The chain follower: indexes the contracts' events into the database so member reads
// never call the chain. One process leads (leader-lock.ts) and polls every CHAIN_POLL_INTERVAL_MS;
// the others try to take over at the same pace. The embedded chain also syncs after each mined
// transaction, before its send answers, so what a member just did reads back at once.
import type { Log } from '../../logging';
import type { Config } from '../../config';
import type { Database } from '../../infra/db/database';
import { releaseAfter, type LeaderLock } from '../../infra/db/leader-lock';
import { LOCK_KEYS } from '../../infra/db/lock-keys';
import type { Chain } from '../../infra/chain/chain';
import { recordFailure, type RollbackListener } from './follower-store';
import { FollowerOvertaken, syncOnce, type SyncSettings } from './follower-sync';
import { countedNode, type NodeCalls } from '../../infra/chain/node-calls';

export class ChainFollower {
  /** The follower's own calls to the node (also counted in chain.node.calls). */
  readonly calls: NodeCalls;
  readonly #settings: SyncSettings;
  readonly #lock: LeaderLock;
  readonly #interval: number;
  readonly #log: Log;
  #tail: Promise<void> = Promise.resolve();
  #queued: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #failing = false;
  readonly #afterPass: Array<() => void> = [];
  readonly #onRollBack: RollbackListener[] = [];

  constructor(config: Config, database: Database, chain: Chain, log: Log) {
    const node = countedNode(chain.node);
    this.calls = node.calls;
    this.#log = log;
    this.#interval = config.CHAIN_POLL_INTERVAL_MS;
    this.#lock = database.leaderLock(LOCK_KEYS.chainFollower);
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
    return this.#lock.held;
  }

  /** Tries to lead and follows once, then keeps polling. Resolves after that first attempt. */
  async start(): Promise<void> {
    await this.#tick();
    this.#schedule();
  }

  /** A sync that starts after this call (one already waiting is shared); never rejects. */
  syncNow(): Promise<void> {
    if (this.#stopped || !this.#lock.held) return Promise.resolve();
    if (this.#queued) return this.#queued;
    const next = this.#tail.then(async () => {
      this.#queued = undefined;
      await this.#sync();
    });
    this.#queued = next;
    this.#tail = next;
    return next;
  }

  /** Stops polling and lets the lock go, after the pass under way (waiting at most STOP_WAIT_MS: a
   * hung node must not hold up a shutdown; a pass finishing later cannot record twice). */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await releaseAfter(this.#tail, this.#lock);
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(
      () => void this.#tick().finally(() => this.#schedule()),
      this.#interval,
    );
  }

  async #tick(): Promise<void> {
    if (this.#stopped) return;
    if (!this.#lock.held) {
      if (!(await this.#lock.tryAcquire())) return;
      this.#log.info('chain follower: this process leads');
    }
    await this.syncNow();
  }

  async #sync(): Promise<void> {
    if (this.#stopped || !this.#lock.held) return;
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
