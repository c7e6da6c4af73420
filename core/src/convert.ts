// The convert page's amount rules (SPEC §4, §5) and the swap modal's figures (SPEC §2, §9). Both
// are previews: no call is made and nothing is converted.
import { CAPS_PER_REME, SIGNUP_CAPS, SWAP_REME_PER_CAP } from './constants';

export const CONVERT_INITIAL_MAX = 1000;

/** CAPs that may be converted: the total minus the signup amount, never below 0. */
export function convertibleCaps(totalCaps: number): number {
  return Math.max(0, Math.floor(totalCaps) - SIGNUP_CAPS);
}

/** Floor to an integer; NaN or negative becomes 0; at most `available`. */
export function clampConvertAmount(value: number, available: number): number {
  if (Number.isNaN(value) || value < 0) return 0;
  return Math.min(Math.floor(value), Math.max(0, available));
}

/** The amount the convert page starts at: min(1000, available). */
export function initialConvertAmount(available: number): number {
  return Math.min(CONVERT_INITIAL_MAX, Math.max(0, available));
}

/** REME received for CAPs on the convert page (6.028 CAPs per REME), to 4 decimals. */
export function remeForCaps(caps: number): string {
  return (Math.floor((caps / CAPS_PER_REME) * 10_000) / 10_000).toFixed(4);
}

/** REME received for CAPs in the swap modal (0.166 REME per CAP), to 4 decimals. */
export function swapReme(caps: number): string {
  return (Math.round(caps * SWAP_REME_PER_CAP * 10_000) / 10_000).toFixed(4);
}
