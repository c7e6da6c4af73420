import { describe, expect, it } from 'vitest';
import {
  capsPerThousandReme,
  clampConvertAmount,
  conversionRates,
  conversionRatesFor,
  convertibleCaps,
  initialConvertAmount,
  remeBaseUnitsForCaps,
  remeForCaps,
} from './convert';

describe('convert amount ("floor to an integer; NaN or negative becomes 0; cap at the CAPs available. The initial value is min(1000, available).")', () => {
  it('available CAPs are the care CAPs not yet converted (joining and inviting are paid as REME)', () => {
    expect(convertibleCaps({ careActions: 0, converted: 0 })).toBe(0);
    expect(convertibleCaps({ careActions: 275, converted: 0 })).toBe(275);
    expect(convertibleCaps({ careActions: 275, converted: 60 })).toBe(215);
    expect(convertibleCaps({ careActions: 60, converted: 60 })).toBe(0);
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
    expect(remeForCaps(6028)).toBe('1,000.00');
    expect(remeForCaps(100)).toBe('16.58'); // 16.58925…, truncated like every amount;
  });
});

describe('one rate for the convert page and the swap modal (6.028 CAPs per REME and 0.166 REME per CAP are that rate rounded)', () => {
  it('shows the one pair both ways, each rounded to four significant digits', () => {
    expect(conversionRates).toEqual({ capsPerReme: '6.028', remePerCap: '0.1659' });
  });
  it('gives the same REME for the same CAPs wherever it is asked, in base units without floating point', () => {
    expect(remeBaseUnitsForCaps(6028)).toBe(1000n * 10n ** 18n);
    expect(remeForCaps(475)).toBe('78.79');
    expect(remeBaseUnitsForCaps(-3)).toBe(0n);
  });
});

describe("the rate is the community's setting", () => {
  it('reads a rate of up to three decimals as CAPs per 1,000 REME', () => {
    expect(capsPerThousandReme('6.028')).toBe(6028n);
    expect(capsPerThousandReme('10')).toBe(10000n);
    expect(capsPerThousandReme('2.5')).toBe(2500n);
  });
  it('gives figures at another rate, rounded down as the server rounds', () => {
    expect(remeForCaps(60, '10')).toBe('6.00');
    expect(remeForCaps(60)).toBe('9.95');
    expect(remeBaseUnitsForCaps(1, '3')).toBe(333333333333333333n);
    expect(conversionRatesFor('10')).toEqual({ capsPerReme: '10', remePerCap: '0.1' });
  });
});
