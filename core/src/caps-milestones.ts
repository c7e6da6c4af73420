// The dashboard's CAPs gauge: progress toward the member's next milestone. The
// specification's gauge ran to 200, the registration CAPs, so every new member saw it full.
import { REFERRAL_CAPS_BY_LEVEL } from './constants';

export const CAPS_MILESTONES = [500, 1_000, 2_500, 5_000, 10_000] as const;
/** Past the last milestone, one every this many CAPs. */
export const CAPS_MILESTONE_STEP = 10_000;

/** The first milestone above `total`, and how many CAPs are still missing to reach it. */
export function nextCapsMilestone(total: number): { milestone: number; remaining: number } {
  const caps = Math.max(0, Math.floor(total));
  const milestone =
    CAPS_MILESTONES.find((m) => m > caps) ??
    (Math.floor(caps / CAPS_MILESTONE_STEP) + 1) * CAPS_MILESTONE_STEP;
  return { milestone, remaining: milestone - caps };
}

/** "about 3 friends": how many direct referrals would close the gap (each earns the level-1 reward). */
export function friendsToMilestone(remaining: number): number {
  return Math.ceil(remaining / REFERRAL_CAPS_BY_LEVEL[0]);
}
