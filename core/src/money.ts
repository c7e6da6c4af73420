// Amounts as a member reads them: a few significant digits instead of 18 decimals, and
// their value in pounds beside them where a price is known. Base units (10^18) in, text out, no
// floating point.
import { BASE_UNIT } from './constants';

export type Rounding = 'down' | 'up' | 'nearest';

const groupThousands = (whole: string) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Rounds `value` to a multiple of `quantum` the way asked. */
function roundTo(value: bigint, quantum: bigint, rounding: Rounding): bigint {
  const rest = value % quantum;
  if (rest === 0n) return value;
  const down = value - rest;
  if (rounding === 'down') return down;
  if (rounding === 'up') return down + quantum;
  return rest * 2n >= quantum ? down + quantum : down;
}

/**
 * "0.00007124", "0.05", "1,234.6" from base units: at most `significant` significant digits after
 * the point (a whole number keeps all its digits), trailing zeros dropped. Round 'down' what a
 * member holds (never more than they have), 'up' what they must pay (never less than it costs).
 */
export function formatTokens(
  baseUnits: bigint | string,
  { significant = 4, rounding = 'down' }: { significant?: number; rounding?: Rounding } = {},
): string {
  const value = BigInt(baseUnits);
  if (value <= 0n) return '0';
  const digits = value.toString().length;
  // The smallest place kept, as a power of ten of the base unit: never below the unit's 18th
  // decimal, never above the unit itself (whole numbers are not rounded to tens).
  const place = Math.min(18, Math.max(0, digits - significant));
  const rounded = roundTo(value, 10n ** BigInt(place), rounding);
  const whole = groupThousands((rounded / BASE_UNIT).toString());
  const fraction = (rounded % BASE_UNIT).toString().padStart(18, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** Pennies of `baseUnits` at `priceGbp` (a decimal string such as "0.10" or "2000"), rounded as asked. */
function pennies(baseUnits: bigint, priceGbp: string, rounding: Rounding): bigint {
  const [units = '0', decimals = ''] = priceGbp.split('.');
  const priceMicros = BigInt(units) * 1_000_000n + BigInt(decimals.padEnd(6, '0').slice(0, 6));
  const scale = BASE_UNIT * 10_000n; // base units × micro-pounds → pennies
  return roundTo(baseUnits * priceMicros, scale, rounding) / scale;
}

/** "£20.00", "£1,234.56", or "under £0.01" for more than nothing that rounds to no penny (rounding 'up' never does). */
export function formatGbp(
  baseUnits: bigint | string,
  priceGbp: string,
  rounding: Rounding = 'down',
): string {
  const value = BigInt(baseUnits);
  const p = pennies(value, priceGbp, rounding);
  if (value > 0n && p === 0n) return 'under £0.01';
  return `£${groupThousands((p / 100n).toString())}.${(p % 100n).toString().padStart(2, '0')}`;
}

/** "0.00007124 ETH (≈ £0.15)"; without a price, the amount alone. */
export function formatWithGbp(
  baseUnits: bigint | string,
  unit: string,
  priceGbp: string | null,
  rounding: Rounding = 'down',
): string {
  const amount = `${formatTokens(baseUnits, { rounding })} ${unit}`;
  return priceGbp === null ? amount : `${amount} (≈ ${formatGbp(baseUnits, priceGbp, rounding)})`;
}
