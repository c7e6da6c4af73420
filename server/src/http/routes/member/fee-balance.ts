// The member's ETH for the claim fee is the one member read that asks the node. Each wallet's
// balance is read at most once per FEE_BALANCE_CACHE_MS in this process (asks at the same moment
// share the read), and forgotten at once when the embedded chain mines, since a transfer may have
// changed it; each member may ask FEE_BALANCE_RATE_LIMIT_PER_MINUTE times a minute.

interface Read {
  at: number;
  balance: Promise<bigint>;
}

/** Balances by wallet, each kept `maxAgeMs`; a failed read is not kept, so the next ask tries again. */
export class BalanceCache {
  /** In the order read, so the expired ones are always at the front. */
  readonly #reads = new Map<string, Read>();

  constructor(
    private readonly read: (address: string) => Promise<bigint>,
    private readonly options: { maxAgeMs: number; now?: () => number },
  ) {}

  get(address: string): Promise<bigint> {
    const now = (this.options.now ?? Date.now)();
    this.#forgetExpired(now);
    const kept = this.#reads.get(address);
    if (kept) return kept.balance;
    const balance = this.read(address);
    const entry = { at: now, balance };
    this.#reads.set(address, entry);
    balance.catch(() => {
      if (this.#reads.get(address) === entry) this.#reads.delete(address);
    });
    return balance;
  }

  clear(): void {
    this.#reads.clear();
  }

  #forgetExpired(now: number) {
    for (const [address, { at }] of this.#reads) {
      if (now - at < this.options.maxAgeMs) return;
      this.#reads.delete(address);
    }
  }
}
