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

/** Price × amount in GBP ("0.10" × 300 REME → "30.00"), to the penny, truncated. */
export function formatValue(baseUnits: bigint | string, price: string): string {
  const [units = '0', cents = ''] = price.split('.');
  const priceMicros = BigInt(units) * 1_000_000n + BigInt(cents.padEnd(6, '0').slice(0, 6));
  const pennies = (BigInt(baseUnits) * priceMicros) / (BASE_UNIT * 10_000n);
  return `${pennies / 100n}.${(pennies % 100n).toString().padStart(2, '0')}`;
}
