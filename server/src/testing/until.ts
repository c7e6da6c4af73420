// Waiting for something to happen: check a condition until it holds, with a deadline. The one
// polling loop of the server's tests: a test waits for the event a fixed sleep would stand for.

export interface UntilOptions {
  /** Give up after this long (default 15 s). */
  timeoutMs?: number;
  /** The pause between two checks (default 20 ms). */
  intervalMs?: number;
  /** What is awaited, for the error; a function is asked only when the wait fails. */
  what?: string | (() => string);
}

/**
 * Resolves as soon as `condition` holds; throws `Error("<what> not met within N ms")` once
 * `timeoutMs` has passed without it. An error thrown by `condition` ends the wait with that error.
 */
export async function until(
  condition: () => boolean | Promise<boolean>,
  opts: UntilOptions = {},
): Promise<void> {
  const { timeoutMs = 15_000, intervalMs = 20 } = opts;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() >= deadline) {
      const what = typeof opts.what === 'function' ? opts.what() : (opts.what ?? 'condition');
      throw new Error(`${what} not met within ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** As `until`, for a value read again at each check: returns the first that is `done`; the error
 * names the last one read. */
export async function untilRead<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  opts: UntilOptions = {},
): Promise<T> {
  let last: { value: T } | undefined;
  try {
    await until(async () => {
      last = { value: await read() };
      return done(last.value);
    }, opts);
  } catch (error) {
    if (error instanceof Error && last)
      error.message += `; last seen ${JSON.stringify(last.value, (_key, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`;
    throw error;
  }
  return last!.value;
}
