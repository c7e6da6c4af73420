import { describe, expect, it } from 'vitest';
import { redactUrl } from './logging';

describe('redactUrl', () => {
  it('replaces the values of secret-bearing query parameters, keeping the others as they are', () => {
    expect(redactUrl('/auth/verify-email?token=eyJ.a.b&callbackURL=%2F%3Fconfirmed%3Dtrue')).toBe(
      '/auth/verify-email?token=[redacted]&callbackURL=%2F%3Fconfirmed%3Dtrue',
    );
    expect(redactUrl('/welcome?authtoken=abc&Code=1&STATE=2&lang=en')).toBe(
      '/welcome?authtoken=[redacted]&Code=[redacted]&STATE=[redacted]&lang=en',
    );
    expect(redactUrl('/x?%74oken=abc')).toBe('/x?%74oken=[redacted]');
  });

  it('replaces the token in the path of the reset link', () => {
    expect(redactUrl('/auth/reset-password/hKyvrilT7eyN?callbackURL=%2Freset-password')).toBe(
      '/auth/reset-password/[redacted]?callbackURL=%2Freset-password',
    );
    expect(redactUrl('/auth/reset-password/hKyvrilT7eyN')).toBe('/auth/reset-password/[redacted]');
    expect(redactUrl('/auth/reset-password')).toBe('/auth/reset-password');
  });

  it('leaves URLs without secrets alone', () => {
    for (const url of ['/api/health', '/dev/mail.json?to=a%40b.test', '/r/ABC?x=1&y', '/x?%E0=1'])
      expect(redactUrl(url)).toBe(url);
  });
});
