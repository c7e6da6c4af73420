import { describe, expect, it } from 'vitest';
import { findReferralCode, normalizeReferralCode, referralCodeInPath } from './referral-code';

const url = (href: string) => {
  const u = new URL(href, 'http://localhost');
  return { pathname: u.pathname, search: u.search, hash: u.hash };
};

describe('findReferralCode ("Detected from the query parameter ref or referral, the path /r/{code} or /signup/{code}, or the hash ref=")', () => {
  it('reads the query parameter ref', () => {
    expect(findReferralCode(url('/?ref=ABC123'))).toBe('ABC123');
  });
  it('reads the query parameter referral', () => {
    expect(findReferralCode(url('/signup?referral=XYZ9'))).toBe('XYZ9');
  });
  it('reads the path /r/{code} and /signup/{code}', () => {
    expect(findReferralCode(url('/r/CODE1'))).toBe('CODE1');
    expect(findReferralCode(url('/signup/CODE2'))).toBe('CODE2');
  });
  it('reads the hash ref=', () => {
    expect(findReferralCode(url('/#ref=HASH7'))).toBe('HASH7');
  });
  it('prefers the query over the path and the hash', () => {
    expect(findReferralCode(url('/r/PATH1?ref=QUERY1#ref=HASH1'))).toBe('QUERY1');
  });
  it('skips an invalid candidate and takes the next valid one', () => {
    expect(findReferralCode(url('/r/GOOD1?ref=bad-code'))).toBe('GOOD1');
  });
  it('upper-cases the code ("The referral code is upper-cased")', () => {
    expect(findReferralCode(url('/?ref=abc12'))).toBe('ABC12');
  });
  it('returns null when there is no code', () => {
    expect(findReferralCode(url('/dashboard'))).toBeNull();
  });
});

describe('normalizeReferralCode ("Letters and digits only"; "TS0001 is treated as no referral")', () => {
  it('accepts letters and digits', () => {
    expect(normalizeReferralCode('Ab12')).toBe('AB12');
  });
  it.each(['AB-12', 'AB 12', 'ÄB12', '<script>', '', '   ', 'A'.repeat(17)])(
    'rejects %j',
    (raw) => {
      expect(normalizeReferralCode(raw)).toBeNull();
    },
  );
  it('treats the default TS0001 as no referral, in any case', () => {
    expect(normalizeReferralCode('TS0001')).toBeNull();
    expect(normalizeReferralCode('ts0001')).toBeNull();
  });
  it('treats a missing value as no referral', () => {
    expect(normalizeReferralCode(null)).toBeNull();
    expect(normalizeReferralCode(undefined)).toBeNull();
  });
});

describe('readReferralCode (typed input: a bad code is not the same as no code)', () => {
  it('tells none, invalid and a code apart', async () => {
    const { readReferralCode } = await import('./referral-code');
    expect(readReferralCode('')).toEqual({ kind: 'none' });
    expect(readReferralCode(undefined)).toEqual({ kind: 'none' });
    expect(readReferralCode('ts0001')).toEqual({ kind: 'none' });
    expect(readReferralCode('AB-12')).toEqual({ kind: 'invalid' });
    expect(readReferralCode(' ab12 ')).toEqual({ kind: 'code', code: 'AB12' });
  });
});

describe('referralCodeInPath', () => {
  it('returns the raw segment of /r/{code} and /signup/{code} only', () => {
    expect(referralCodeInPath('/r/abc')).toBe('abc');
    expect(referralCodeInPath('/signup/abc/')).toBe('abc');
    expect(referralCodeInPath('/rcb')).toBeNull();
    expect(referralCodeInPath('/r/a/b')).toBeNull();
  });
  it('survives a malformed escape', () => {
    expect(referralCodeInPath('/r/%E0%A4%A')).toBeNull();
  });
});

describe('own referral codes', () => {
  it('are 8 letters and digits without look-alikes, and pass normalizeReferralCode unchanged', async () => {
    const { newReferralCode } = await import('./referral-code');
    const code = newReferralCode(crypto.getRandomValues(new Uint8Array(8)));
    expect(code).toMatch(/^[A-HJKMNP-Z2-9]{8}$/);
    expect(normalizeReferralCode(code)).toBe(code);
  });
  it("unknown codes get the message: 'Invalid referral code: {code}. Please check the code and try again.'", async () => {
    const { invalidReferralCodeMessage } = await import('./referral-code');
    expect(invalidReferralCodeMessage('NOPE1')).toBe(
      'Invalid referral code: NOPE1. Please check the code and try again.',
    );
  });
});
