// Background work done pass after pass — by one process at a time when it takes a lock (the chain
// follower, the relayer), or by every process (the mail outbox, whose rows carry leases): a pass
// now, a pass brought forward, the next after a wait, and a stop that lets the pass under way end.

/** The lock a leading process holds (infra/db/leader-lock.ts). */
export interface LoopLock {
  readonly held: boolean;
  /** Takes the lock if nobody holds it; true when this process has it. Never throws. */
  tryAcquire(): Promise<boolean>;
  release(): Promise<void>;
}

export interface LeaderLoopOptions {
  /** One pass. What it throws goes to onError; the loop goes on. */
  pass: () => Promise<void>;
  /** The wait after a timed pass before the next one. */
  waitMs: () => number;
  /** When set, a pass runs only while this process holds it (each pass tries to take it). */
  lock?: LoopLock;
  /** This process took the lock. */
  onLead?: () => void;
  onError?: (error: unknown) => void;
  /** How long stop() waits for the pass under way before letting the lock go (default: until it
   * ends). A hung node must not hold up a shutdown. */
  stopWaitMs?: number;
}

export class LeaderLoop {
  #tail: Promise<void> = Promise.resolve();
  #queued: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** When the timer's pass is due (in the past while it runs). */
  #dueAt = 0;
  /** Only stop() stops: before start(), runNow() runs a pass (a test drives passes that way). */
  #stopped = false;

  constructor(private readonly options: LeaderLoopOptions) {}

  /** False once stopped. */
  get running(): boolean {
    return !this.#stopped;
  }

  /** True while this process leads (always, without a lock). */
  get leading(): boolean {
    return this.options.lock?.held ?? true;
  }

  /** Runs the first pass now and resolves once it ran; then a pass after each waitMs(). */
  async start(): Promise<void> {
    this.#stopped = false;
    await this.runNow();
    this.#schedule(this.options.waitMs());
  }

  /** Starts with the first pass `ms` from now. */
  startIn(ms: number): void {
    this.#stopped = false;
    this.#schedule(ms);
  }

  /** A pass that starts after this call (one already waiting to start is shared); never rejects. */
  runNow(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    if (this.#queued) return this.#queued;
    const next = this.#tail.then(async () => {
      this.#queued = undefined;
      await this.#run();
    });
    this.#queued = next;
    this.#tail = next;
    return next;
  }

  /** Brings the next timed pass forward to at most `ms` from now; never puts it off. */
  wakeWithin(ms: number): void {
    if (this.#stopped) return;
    if (this.#timer !== undefined && this.#dueAt <= Date.now() + ms) return;
    clearTimeout(this.#timer);
    this.#schedule(ms);
  }

  /** No pass starts after this; resolves once the pass under way ended (or stopWaitMs passed) and
   * the lock is let go. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    let timer: NodeJS.Timeout | undefined;
    const ended = this.#tail.catch(() => undefined);
    const { stopWaitMs } = this.options;
    await (stopWaitMs === undefined
      ? ended
      : Promise.race([ended, new Promise((resolve) => (timer = setTimeout(resolve, stopWaitMs)))]));
    clearTimeout(timer);
    await this.options.lock?.release();
  }

  async #run(): Promise<void> {
    if (this.#stopped) return;
    const { lock } = this.options;
    if (lock && !lock.held) {
      if (!(await lock.tryAcquire())) return;
      this.options.onLead?.();
    }
    try {
      await this.options.pass();
    } catch (error) {
      this.options.onError?.(error);
    }
  }

  #schedule(ms: number): void {
    if (this.#stopped) return;
    this.#dueAt = Date.now() + ms;
    this.#timer = setTimeout(() => {
      void this.runNow().finally(() => {
        clearTimeout(this.#timer);
        this.#schedule(this.options.waitMs());
      });
    }, ms);
  }
}
