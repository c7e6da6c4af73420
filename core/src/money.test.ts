import { describe, expect, it } from 'vitest';
import { formatGbp, formatTokens, formatWithGbp } from './money';

const fee = 71_234_567_891_234n; // 0.000071234567891234 ETH: a claim's fee at ~1 gwei

describe('formatTokens: a few significant digits, never 18 decimals', () => {
  it('keeps four significant digits of a small amount, rounding down what is held and up what is owed', () => {
    expect(formatTokens(fee)).toBe('0.00007123');
    expect(formatTokens(fee, { rounding: 'up' })).toBe('0.00007124');
    expect(formatTokens(165_892_501_658_925_016n, { rounding: 'nearest' })).toBe('0.1659');
    expect(formatTokens(165_892_501_658_925_016n, { significant: 6 })).toBe('0.165892');
  });

  it('drops trailing zeros, keeps whole numbers whole and groups thousands', () => {
    expect(formatTokens(5n * 10n ** 16n)).toBe('0.05');
    expect(formatTokens(200n * 10n ** 18n)).toBe('200');
    expect(formatTokens(1_234_567_800_000_000_000_000n)).toBe('1,234');
    expect(formatTokens(1_234_560_000_000_000_000n)).toBe('1.234');
    expect(formatTokens('6028000000000000000')).toBe('6.028');
  });

  it('shows nothing as 0, and a single base unit exactly', () => {
    expect(formatTokens(0n)).toBe('0');
    expect(formatTokens(1n)).toBe('0.000000000000000001');
  });

  it('carries a rounding up into the next digit', () => {
    expect(formatTokens(99_999n * 10n ** 14n, { rounding: 'up' })).toBe('10');
    expect(formatTokens(99_991n * 10n ** 13n, { rounding: 'up' })).toBe('1');
  });
});

describe('formatGbp: the value in pounds at a configured price', () => {
  it('multiplies without floating point, to the penny', () => {
    expect(formatGbp(200n * 10n ** 18n, '0.10')).toBe('£20.00');
    expect(formatGbp(15n * 10n ** 17n, '0.10')).toBe('£0.15');
    expect(formatGbp(12_345n * 10n ** 18n, '0.10')).toBe('£1,234.50');
    expect(formatGbp(fee, '2000')).toBe('£0.14');
    expect(formatGbp(fee, '2000', 'up')).toBe('£0.15');
  });

  it('never shows a positive amount as £0.00', () => {
    expect(formatGbp(0n, '2000')).toBe('£0.00');
    expect(formatGbp(10n ** 12n, '2000')).toBe('under £0.01');
    expect(formatGbp(10n ** 12n, '2000', 'up')).toBe('£0.01');
  });
});

describe('formatWithGbp', () => {
  it('puts the £ value beside the amount where a price is configured, and nothing where none is', () => {
    expect(formatWithGbp(fee, 'ETH', '2000', 'up')).toBe('0.00007124 ETH (≈ £0.15)');
    expect(formatWithGbp(5n * 10n ** 16n, 'ETH', '2000')).toBe('0.05 ETH (≈ £100.00)');
    expect(formatWithGbp(fee, 'ETH', null)).toBe('0.00007123 ETH');
  });
});
