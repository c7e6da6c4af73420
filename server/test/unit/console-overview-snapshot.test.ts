// The console overview's parts on their own: the snapshot's stale-while-revalidate rule and the
// search for each day's first block (the route itself: console-overview.test.ts).
import { describe, expect, it } from 'vitest';
import { DayBlocks } from '../../src/domain/indexer/day-blocks';
import { Snapshot } from '../../src/lib/snapshot';

describe('the snapshot', () => {
  it('computes once at first, then serves what it has and refreshes in the background after a minute', async () => {
    let clock = 0;
    let computed = 0;
    const gates: Array<() => void> = [];
    const snapshot = new Snapshot(
      () =>
        new Promise<number>((resolve) => {
          const n = ++computed;
          gates.push(() => resolve(n));
        }),
      { maxAgeMs: 60_000, retryMs: 10_000, now: () => clock },
    );
    const firstTwo = [snapshot.get(), snapshot.get()];
    expect(computed).toBe(1); // two callers at once share the first computation
    gates.shift()!();
    expect(await Promise.all(firstTwo)).toEqual([1, 1]);

    clock = 59_999;
    expect(await snapshot.get()).toBe(1);
    expect(computed).toBe(1);

    clock = 60_000;
    expect(await snapshot.get()).toBe(1); // stale, answered at once
    expect(computed).toBe(2);
    expect(await snapshot.get()).toBe(1); // one refresh at a time
    expect(computed).toBe(2);
    gates.shift()!();
    await snapshot.settled();
    expect(await snapshot.get()).toBe(2);
    expect(computed).toBe(2); // its age counts from when the refresh began
  });

  it('keeps the last value when a refresh fails, and tries again only after a pause', async () => {
    let clock = 0;
    let fail = false;
    let computed = 0;
    const errors: unknown[] = [];
    const snapshot = new Snapshot(
      async () => {
        computed += 1;
        if (fail) throw new Error('database away');
        return computed;
      },
      { maxAgeMs: 60_000, retryMs: 10_000, now: () => clock, onError: (e) => errors.push(e) },
    );
    expect(await snapshot.get()).toBe(1);
    fail = true;
    clock = 61_000;
    expect(await snapshot.get()).toBe(1);
    await snapshot.settled();
    expect(errors).toHaveLength(1);
    clock = 65_000;
    expect(await snapshot.get()).toBe(1);
    expect(computed).toBe(2);
    fail = false;
    clock = 71_000;
    expect(await snapshot.get()).toBe(1);
    await snapshot.settled();
    expect(await snapshot.get()).toBe(3);
  });

  it('lets the first request fail, and the next one try again', async () => {
    let calls = 0;
    const snapshot = new Snapshot(
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('first failed');
        return 'ok';
      },
      { maxAgeMs: 60_000 },
    );
    await expect(snapshot.get()).rejects.toThrow('first failed');
    expect(await snapshot.get()).toBe('ok');
  });
});

describe("each day's first block", () => {
  const DAY = 86_400;
  const midnights = (first: number) => Array.from({ length: 30 }, (_, i) => first + i * DAY);
  /** The first block at or after each midnight, by reading every block. */
  const expected = (times: number[], ms: number[], start: number, last: number) =>
    ms.map((m) => {
      for (let b = start; b <= last; b++) if (times[b]! >= m) return b;
      return last + 1;
    });

  it('finds them on a regular chain in a few reads each, and keeps them', async () => {
    // A block every 12 s from 40 days ago, with a few missed slots.
    const origin = 1_700_000_000;
    const times: number[] = [];
    for (let b = 0, time = origin; b < 40 * 7_200; b++) {
      times.push(time);
      time += b % 997 === 0 ? 24 : 12;
    }
    let reads = 0;
    const blocks = new DayBlocks(async (n) => {
      reads += 1;
      return times[n]!;
    });
    const last = times.length - 1 - 3_000;
    const ms = midnights(Math.ceil(origin / DAY) * DAY + 9 * DAY);
    expect(await blocks.firstBlocks(ms, 0, last)).toEqual(expected(times, ms, 0, last));
    expect(reads).toBeLessThan(30 * 8);
    const before = reads;
    expect(await blocks.firstBlocks(ms, 0, last + 100)).toEqual(expected(times, ms, 0, last + 100));
    expect(reads - before).toBeLessThanOrEqual(1 + 8); // the new last block, the day it reached
  });

  it('is exact on an irregular chain, and before the first block or after the last', async () => {
    // Blocks only when something happens: bursts and long gaps.
    const origin = 1_700_000_000;
    const times: number[] = [];
    let time = origin;
    for (let b = 0; b < 5_000; b++) {
      times.push(time);
      time += b % 50 === 0 ? 3 * 3_600 + (b % 7) * 1_000 : 1 + (b % 3);
    }
    const blocks = new DayBlocks(async (n) => times[n]!);
    const from = Math.floor(origin / DAY) * DAY - 5 * DAY;
    const ms = midnights(from);
    const start = 10;
    const last = 4_000;
    expect(await blocks.firstBlocks(ms, start, last)).toEqual(expected(times, ms, start, last));
  });
});
