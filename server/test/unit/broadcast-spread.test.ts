// A round published tells every open stream "changed", and every open dashboard then reads its
// figures afresh: told all at once, thousands of streams stalled every member's requests in
// bench/soak.ts. Broadcasts are spread over 2 ms a stream; a member's own change is told at once.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import {
  BROADCAST_MS_PER_STREAM,
  EVERY_MEMBER,
  MemberEvents,
} from '../../src/infra/db/member-notices';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

it("tells 1,000 streams of a broadcast over 2 s, not at once, and a member's own change at once", () => {
  const events = new MemberEvents();
  const told: number[] = [];
  for (let i = 0; i < 1_000; i++) events.subscribe(`member-${i}`, () => told.push(Date.now()));
  const cacheHeard: string[] = [];
  events.observe((id) => cacheHeard.push(id));
  const start = Date.now();
  events.publish(EVERY_MEMBER);
  expect(cacheHeard).toEqual([EVERY_MEMBER]);
  expect(told.length).toBeLessThan(20);
  vi.advanceTimersByTime(1_000);
  expect(told.length).toBeGreaterThan(300);
  expect(told.length).toBeLessThan(700);
  vi.advanceTimersByTime(1_000 * BROADCAST_MS_PER_STREAM);
  expect(told.length).toBe(1_000);
  expect(Math.max(...told) - start).toBeLessThanOrEqual(2_000);

  told.length = 0;
  events.publish('member-7');
  expect(told.length).toBe(1);
});
