// Converting care CAPs into REME (docs/product.md#caps-and-reme): the amount rules of the convert
// form (the Convert page and the Swap dialog share it) and the figures at the community's rate.
// The server converts at the same rate with the same rounding (migration 0030), so what the form
// says a conversion gives is what it gives.
import { formatReme } from './amounts';
import { BASE_UNIT, CAPS_REME_RATE } from './constants';
import { formatTokens } from './money';

export const CONVERT_INITIAL_MAX = 1000;

/** The community's rate as a decimal string of CAPs per REME ("6.028"): the server's
 * CONVERSION_CAPS_PER_REME, given to the app in its public configuration. */
export const DEFAULT_CAPS_PER_REME = '6.028';

/** "6.028" CAPs per REME as whole CAPs per 1,000 REME (6028); the rate has at most 3 decimals. */
export function capsPerThousandReme(capsPerReme: string): bigint {
  const [whole = '0', fraction = ''] = capsPerReme.split('.');
  return BigInt(whole) * 1000n + BigInt(fraction.slice(0, 3).padEnd(3, '0'));
}

/** Care CAPs not yet converted: what the member may convert, never below 0. */
export function convertibleCaps(caps: { careActions: number; converted: number }): number {
  return Math.max(0, Math.floor(caps.careActions - caps.converted));
}

/** Floor to an integer; NaN or negative becomes 0; at most `available`. */
export function clampConvertAmount(value: number, available: number): number {
  if (Number.isNaN(value) || value < 0) return 0;
  return Math.min(Math.floor(value), Math.max(0, available));
}

/** The amount the convert form starts at: min(1000, available). */
export function initialConvertAmount(available: number): number {
  return Math.min(CONVERT_INITIAL_MAX, Math.max(0, available));
}

/** REME (base units) received for whole CAPs at the rate, rounded down (as the server rounds). */
export function remeBaseUnitsForCaps(caps: number, capsPerReme = DEFAULT_CAPS_PER_REME): bigint {
  const perThousand = capsPerThousandReme(capsPerReme);
  if (perThousand <= 0n) return 0n;
  return (BigInt(Math.max(0, Math.floor(caps))) * CAPS_REME_RATE.reme * BASE_UNIT) / perThousand;
}

/** REME received for CAPs, as members read REME: two decimals (truncated, like every REME amount). */
export function remeForCaps(caps: number, capsPerReme = DEFAULT_CAPS_PER_REME): string {
  return formatReme(remeBaseUnitsForCaps(caps, capsPerReme));
}

/** The rate both ways, as shown: "6.028" CAPs per REME and "0.1659" REME per CAP. */
export function conversionRatesFor(capsPerReme: string): {
  capsPerReme: string;
  remePerCap: string;
} {
  const perThousand = capsPerThousandReme(capsPerReme);
  return {
    capsPerReme: formatTokens((perThousand * BASE_UNIT) / CAPS_REME_RATE.reme, {
      rounding: 'nearest',
    }),
    remePerCap:
      perThousand > 0n
        ? formatTokens((CAPS_REME_RATE.reme * BASE_UNIT) / perThousand, { rounding: 'nearest' })
        : '0',
  };
}

/** The specification's rate both ways. */
export const conversionRates = conversionRatesFor(DEFAULT_CAPS_PER_REME);
