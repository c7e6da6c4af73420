// The convert page's amount rules and the swap modal's figures, both
// at the one rate CAPS_REME_RATE. Both are previews: no call is made and nothing is converted.
import { formatAmount } from './amounts';
import { BASE_UNIT, CAPS_REME_RATE, SIGNUP_CAPS } from './constants';
import { formatTokens } from './money';

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

/** REME (base units) received for whole CAPs at CAPS_REME_RATE, rounded down. */
export function remeBaseUnitsForCaps(caps: number): bigint {
  return (
    (BigInt(Math.max(0, Math.floor(caps))) * CAPS_REME_RATE.reme * BASE_UNIT) / CAPS_REME_RATE.caps
  );
}

/** REME received for CAPs, to 4 decimals (truncated, like every REME amount). */
export function remeForCaps(caps: number): string {
  return formatAmount(remeBaseUnitsForCaps(caps));
}

/** The rate both ways, as shown: "6.028" CAPs per REME and "0.1659" REME per CAP. */
export const conversionRates = {
  capsPerReme: formatTokens((CAPS_REME_RATE.caps * BASE_UNIT) / CAPS_REME_RATE.reme, {
    rounding: 'nearest',
  }),
  remePerCap: formatTokens((CAPS_REME_RATE.reme * BASE_UNIT) / CAPS_REME_RATE.caps, {
    rounding: 'nearest',
  }),
} as const;
