// Amounts in base units (10^18) shown with 4 decimals, without floating point.
import { BASE_UNIT, DISPLAY_DECIMALS, TOKEN_DECIMALS } from './constants';

/** "1234.5678" from base units, truncated (never rounded up) to 4 decimals. */
export function formatAmount(baseUnits: bigint | string, decimals = DISPLAY_DECIMALS): string {
  const value = BigInt(baseUnits);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / BASE_UNIT;
  const fraction = (abs % BASE_UNIT).toString().padStart(18, '0').slice(0, decimals);
  return `${negative ? '-' : ''}${whole.toString()}${decimals > 0 ? `.${fraction}` : ''}`;
}

/** REME as members read it: two decimals, thousands grouped ("1,234.56"), truncated like
 * formatAmount (a member is never shown more than they have). The operator console too, except
 * where an operator must see the exact figure (formatRemeExact). */
export function formatReme(baseUnits: bigint | string): string {
  const [whole = '0', fraction = '00'] = formatAmount(baseUnits, 2).split('.');
  return `${grouped(whole)}.${fraction}`;
}

/** REME to the last base unit, for an operator who must see the exact figure (the total a round
 * publishes, the audit log): grouped as formatReme, with every decimal that is not a trailing zero
 * and at least two ("1,200.00", "1,365.892501658925016589"). */
export function formatRemeExact(baseUnits: bigint | string): string {
  const [whole = '0', fraction = ''] = formatAmount(baseUnits, TOKEN_DECIMALS).split('.');
  return `${grouped(whole)}.${fraction.replace(/0+$/, '').padEnd(2, '0')}`;
}

/** "-1234567" as "-1,234,567". */
function grouped(whole: string): string {
  const negative = whole.startsWith('-');
  const digits = negative ? whole.slice(1) : whole;
  return `${negative ? '-' : ''}${digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
}
