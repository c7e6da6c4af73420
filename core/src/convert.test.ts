import { describe, expect, it } from 'vitest';
import {
  clampConvertAmount,
  conversionRates,
  convertibleCaps,
  initialConvertAmount,
  remeBaseUnitsForCaps,
  remeForCaps,
} from './convert';

describe('convert amount ("floor to an integer; NaN or negative becomes 0; cap at available CAPs (total minus the signup amount). The initial value is min(1000, available).")', () => {
  it('available CAPs are the total minus the signup amount', () => {
    expect(convertibleCaps(200)).toBe(0);
    expect(convertibleCaps(475)).toBe(275);
    expect(convertibleCaps(150)).toBe(0);
  });
  it('floors to an integer', () => {
    expect(clampConvertAmount(12.9, 100)).toBe(12);
  });
  it('NaN or negative becomes 0', () => {
    expect(clampConvertAmount(Number.NaN, 100)).toBe(0);
    expect(clampConvertAmount(-5, 100)).toBe(0);
    expect(clampConvertAmount(-0.5, 100)).toBe(0);
  });
  it('caps at the available CAPs', () => {
    expect(clampConvertAmount(5000, 275)).toBe(275);
    expect(clampConvertAmount(Infinity, 275)).toBe(275);
    expect(clampConvertAmount(10, 0)).toBe(0);
  });
  it('starts at min(1000, available)', () => {
    expect(initialConvertAmount(275)).toBe(275);
    expect(initialConvertAmount(5000)).toBe(1000);
    expect(initialConvertAmount(0)).toBe(0);
  });
  it('converts at 6.028 CAPs per REME', () => {
    expect(remeForCaps(6028)).toBe('1000.0000');
    expect(remeForCaps(100)).toBe('16.5892'); // 16.58925…, truncated like every amount;
  });
});

describe('one rate for the convert page and the swap modal (6.028 CAPs per REME and 0.166 REME per CAP are that rate rounded)', () => {
  it('shows the one pair both ways, each rounded to four significant digits', () => {
    expect(conversionRates).toEqual({ capsPerReme: '6.028', remePerCap: '0.1659' });
  });
  it('gives the same REME for the same CAPs wherever it is asked, in base units without floating point', () => {
    expect(remeBaseUnitsForCaps(6028)).toBe(1000n * 10n ** 18n);
    expect(remeForCaps(475)).toBe('78.7989');
    expect(remeBaseUnitsForCaps(-3)).toBe(0n);
  });
});
