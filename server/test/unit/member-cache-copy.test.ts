// The copy of a member's /api/me row on its own (the notices that drop it: member-cache.test.ts).
import { describe, expect, it } from 'vitest';
import { MemberCache } from '../../src/domain/members/member-cache';
import { EVERY_MEMBER } from '../../src/infra/db/member-notices';

describe('the copy itself', () => {
  it('keeps nothing read across a change, lapses after its lifetime, is bounded, and clears on *', () => {
    const cache = new MemberCache<string>(60_000, 2);
    const epoch = cache.epoch();
    cache.changed('a');
    cache.keep('a', 'read before the change', epoch, 0);
    expect(cache.get('a', 1)).toBeUndefined();
    cache.keep('a', 'row', cache.epoch(), 0);
    expect(cache.get('a', 59_999)).toBe('row');
    expect(cache.get('a', 60_000)).toBeUndefined();
    for (const id of ['a', 'b', 'c']) cache.keep(id, id, cache.epoch(), 0);
    expect(cache.size).toBe(2);
    expect(cache.get('a', 1)).toBeUndefined();
    cache.changed(EVERY_MEMBER);
    expect(cache.size).toBe(0);
    const off = new MemberCache<string>(0);
    off.keep('a', 'row', off.epoch(), 0);
    expect(off.get('a', 1)).toBeUndefined();
  });
});
