// Amounts in base units (10^18) shown with 4 decimals, without floating point.
import { BASE_UNIT, DISPLAY_DECIMALS } from './constants';

/** "1234.5678" from base units, truncated (never rounded up) to 4 decimals. */
export function formatAmount(baseUnits: bigint | string, decimals = DISPLAY_DECIMALS): string {
  const value = BigInt(baseUnits);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / BASE_UNIT;
  const fraction = (abs % BASE_UNIT).toString().padStart(18, '0').slice(0, decimals);
  return `${negative ? '-' : ''}${whole.toString()}${decimals > 0 ? `.${fraction}` : ''}`;
}
