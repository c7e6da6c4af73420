// A value computed at most once per period and served stale while it is computed again
// (stale-while-revalidate): the console's overview and its dry run of the next round.

/** A failed background refresh is tried again after this long, not on every request. */
const RETRY_MS = 10_000;

/**
 * A value computed at most once per `maxAgeMs`, served stale while it is computed again
 * (stale-while-revalidate). Only a caller that finds no value at all waits; callers at the same
 * moment share one computation.
 */
export class Snapshot<T> {
  #value: { value: T; at: number } | undefined;
  #running: Promise<T> | undefined;
  #attemptedAt = Number.NEGATIVE_INFINITY;
  #generation = 0;

  constructor(
    private readonly compute: () => Promise<T>,
    private readonly options: {
      maxAgeMs: number;
      retryMs?: number;
      now?: () => number;
      onError?: (error: unknown) => void;
    },
  ) {}

  #now() {
    return (this.options.now ?? Date.now)();
  }

  /** Forgets the value (the data it was computed from changed): the next caller waits for a new
   * one, and a computation running now is not kept. */
  invalidate(): void {
    this.#value = undefined;
    this.#running = undefined;
    this.#generation++;
  }

  async get(): Promise<T> {
    const current = this.#value;
    if (!current) return this.#refresh();
    const now = this.#now();
    if (
      now - current.at >= this.options.maxAgeMs &&
      now - this.#attemptedAt >= (this.options.retryMs ?? RETRY_MS)
    )
      this.#refresh().catch((error: unknown) => this.options.onError?.(error));
    return current.value;
  }

  /** Resolves once no computation is running (for a clean shutdown). */
  async settled(): Promise<void> {
    await this.#running?.catch(() => undefined);
  }

  #refresh(): Promise<T> {
    if (!this.#running) {
      const at = this.#now();
      const generation = this.#generation;
      this.#attemptedAt = at;
      const running = this.compute()
        .then((value) => {
          if (generation === this.#generation) this.#value = { value, at };
          return value;
        })
        .finally(() => {
          if (this.#running === running) this.#running = undefined;
        });
      this.#running = running;
    }
    return this.#running;
  }
}
