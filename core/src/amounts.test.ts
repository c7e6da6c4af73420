import { describe, expect, it } from 'vitest';
import { formatAmount, formatReme, formatRemeExact } from './amounts';

describe('formatAmount (18 decimals, shown with 4)', () => {
  it('shows base units with 4 decimals, truncating', () => {
    expect(formatAmount(300n * 10n ** 18n)).toBe('300.0000');
    expect(formatAmount('123456789012345678')).toBe('0.1234');
    expect(formatAmount(0n)).toBe('0.0000');
    expect(formatAmount(99999n * 10n ** 13n)).toBe('0.9999');
  });
});

describe('formatReme (what members read: 2 decimals, grouped, never rounded up)', () => {
  it.each([
    [0n, '0.00'],
    [200n * 10n ** 18n, '200.00'],
    [1_234_567n * 10n ** 18n + 999n * 10n ** 15n, '1,234,567.99'],
    [(60n * 1000n * 10n ** 18n) / 6028n, '9.95'],
    [-1500n * 10n ** 18n, '-1,500.00'],
  ])('%s → %s', (value, shown) => {
    expect(formatReme(value)).toBe(shown);
  });
});

describe('formatRemeExact (what an operator confirms: grouped, to the last base unit)', () => {
  it.each([
    [0n, '0.00'],
    [1200n * 10n ** 18n, '1,200.00'],
    [1200n * 10n ** 18n + 5n * 10n ** 17n, '1,200.50'],
    [(1000n * 1000n * 10n ** 18n) / 6028n, '165.892501658925016589'],
    [1_234_567n * 10n ** 18n + 1n, '1,234,567.000000000000000001'],
    ['-1500000000000000000000', '-1,500.00'],
  ])('%s → %s', (value, shown) => {
    expect(formatRemeExact(value)).toBe(shown);
  });
});
