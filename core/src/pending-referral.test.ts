import { describe, expect, it } from 'vitest';
import { decidePendingReferral, parsePendingReferral } from './pending-referral';

const entry = { referralCode: 'ABC123', newUserId: 'u1', timestamp: 1_000_000, processed: false };

describe('pending referral', () => {
  it('"processed at the next sign-in when the new user\'s id matches"', () => {
    expect(decidePendingReferral(entry, 'u1', entry.timestamp + 1000)).toBe('process');
    expect(decidePendingReferral(entry, 'someone-else', entry.timestamp + 1000)).toBe('keep');
  });
  it('"then marked processed": a processed entry is not processed again', () => {
    expect(decidePendingReferral({ ...entry, processed: true }, 'u1', entry.timestamp + 1000)).toBe(
      'keep',
    );
  });
  it('"Entries older than 24 h are deleted"', () => {
    expect(decidePendingReferral(entry, 'u1', entry.timestamp + 24 * 3600 * 1000 + 1)).toBe(
      'delete',
    );
    expect(decidePendingReferral(entry, 'u1', entry.timestamp + 24 * 3600 * 1000)).toBe('process');
  });
  it('ignores garbage in storage', () => {
    expect(parsePendingReferral('not json')).toBeNull();
    expect(parsePendingReferral(JSON.stringify({ referralCode: 1 }))).toBeNull();
    expect(parsePendingReferral(JSON.stringify(entry))).toEqual(entry);
  });
});
