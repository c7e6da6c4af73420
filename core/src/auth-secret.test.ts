import { pbkdf2Sync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AUTH_SECRET_PATTERN, deriveAuthSecret } from './auth-secret';

describe('deriveAuthSecret', () => {
  it('is PBKDF2-SHA256 over the password, salted with the app id and the lowercased e-mail, 600,000 rounds', async () => {
    const secret = await deriveAuthSecret('correct horse', '  Member@Example.COM ');
    const expected = pbkdf2Sync(
      'correct horse',
      'community-rewards-wallet:member@example.com',
      600_000,
      32,
      'sha256',
    ).toString('hex');
    expect(secret).toBe(expected);
    expect(secret).toMatch(AUTH_SECRET_PATTERN);
  });

  it('never contains the password, and differs per e-mail', async () => {
    const a = await deriveAuthSecret('hunter22', 'a@example.com', 1000);
    const b = await deriveAuthSecret('hunter22', 'b@example.com', 1000);
    expect(a).not.toBe(b);
    expect(a).not.toContain('hunter22');
  });
});
