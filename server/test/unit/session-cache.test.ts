// What a process remembers of the sessions better-auth vouched for, on its own (the session check
// and the notices that end a session in every process: session-check.test.ts).
import { describe, expect, it } from 'vitest';
import { SessionCache } from '../../src/infra/identity/session';

describe('what the process remembers', () => {
  it('lapses after its lifetime or at the session expiry, whichever comes first; is bounded; clears on a missed notice; keeps no answer given across an ending', () => {
    const cache = new SessionCache(30_000, 3);
    cache.remember('a', 'user-a', 1_000_000, cache.epoch(), 0);
    expect(cache.get('a', 29_999)?.userId).toBe('user-a');
    expect(cache.get('a', 30_000)).toBeUndefined();
    cache.remember('b', 'user-b', 10_000, cache.epoch(), 0);
    expect(cache.get('b', 9_999)?.userId).toBe('user-b');
    expect(cache.get('b', 10_000)).toBeUndefined();
    for (const key of ['c', 'd', 'e', 'f']) cache.remember(key, key, 1_000_000, cache.epoch(), 0);
    expect(cache.size).toBe(3);
    expect(cache.get('c', 1)).toBeUndefined();
    expect(cache.get('f', 1)?.userId).toBe('f');
    cache.forget('*');
    expect(cache.size).toBe(0);
    // An answer better-auth gave while any session ended is not kept (it may be that one).
    const asked = cache.epoch();
    cache.forget('some-other-session');
    cache.remember('g', 'user-g', 1_000_000, asked, 0);
    expect(cache.get('g', 1)).toBeUndefined();
    const off = new SessionCache(0);
    off.remember('a', 'user-a', 1_000_000, off.epoch(), 0);
    expect(off.get('a', 1)).toBeUndefined();
  });
});
