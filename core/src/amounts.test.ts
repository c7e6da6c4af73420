import { describe, expect, it } from 'vitest';
import { formatAmount } from './amounts';

describe('formatAmount (18 decimals, shown with 4)', () => {
  it('shows base units with 4 decimals, truncating', () => {
    expect(formatAmount(300n * 10n ** 18n)).toBe('300.0000');
    expect(formatAmount('123456789012345678')).toBe('0.1234');
    expect(formatAmount(0n)).toBe('0.0000');
    expect(formatAmount(99999n * 10n ** 13n)).toBe('0.9999');
  });
});
