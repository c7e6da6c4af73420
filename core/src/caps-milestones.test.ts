import { describe, expect, it } from 'vitest';
import { friendsToMilestone, nextCapsMilestone } from './caps-milestones';

describe('the CAPs gauge measures progress toward the next milestone', () => {
  it('puts a new member with the 200 registration CAPs short of the first milestone, not at a full gauge', () => {
    expect(nextCapsMilestone(200)).toEqual({ milestone: 500, remaining: 300 });
    expect(friendsToMilestone(300)).toBe(3);
  });
  it('moves to the next milestone once one is reached', () => {
    expect(nextCapsMilestone(499)).toEqual({ milestone: 500, remaining: 1 });
    expect(nextCapsMilestone(500)).toEqual({ milestone: 1_000, remaining: 500 });
    expect(nextCapsMilestone(9_999)).toEqual({ milestone: 10_000, remaining: 1 });
  });
  it('goes on every 10,000 CAPs past the last named one', () => {
    expect(nextCapsMilestone(10_000)).toEqual({ milestone: 20_000, remaining: 10_000 });
    expect(nextCapsMilestone(34_567)).toEqual({ milestone: 40_000, remaining: 5_433 });
  });
  it('counts whole friends, rounding up', () => {
    expect(friendsToMilestone(1)).toBe(1);
    expect(friendsToMilestone(100)).toBe(1);
    expect(friendsToMilestone(101)).toBe(2);
  });
});
