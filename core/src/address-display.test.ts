import { describe, expect, it } from 'vitest';
import { shortAddress } from './address-display';

describe('address display ("first 6 and last 4 characters")', () => {
  it('shortens an address', () => {
    expect(shortAddress('0x1234567890abcdef1234567890abcdef12345678')).toBe('0x1234…5678');
  });
});
