// Web push's settings and the one rule for where the server may post a push (no database): the
// VAPID pair given together and required in production, else made once and kept in DATA_DIR; an
// endpoint is https on a public host, or — outside production only — a push service on 127.0.0.1.
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config';
import { endpointAllowed, isPublicAddress } from '../../src/infra/push/send';
import { vapidKeys } from '../../src/infra/push/vapid';

const pair = {
  VAPID_PUBLIC_KEY: `B${'A'.repeat(86)}`,
  VAPID_PRIVATE_KEY: 'A'.repeat(43),
};

describe('VAPID settings', () => {
  it('takes the pair together, refuses half of it or a bad key, and requires it in production', () => {
    expect(parseConfig(pair).ok).toBe(true);
    const half = parseConfig({ VAPID_PUBLIC_KEY: pair.VAPID_PUBLIC_KEY });
    expect(half.ok ? [] : half.problems).toEqual([expect.stringMatching(/^VAPID_PRIVATE_KEY: /)]);
    const bad = parseConfig({ ...pair, VAPID_PRIVATE_KEY: 'short', VAPID_SUBJECT: 'http://x.org' });
    expect(bad.ok ? [] : bad.problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'VAPID_PRIVATE_KEY',
      'VAPID_SUBJECT',
    ]);
    const production = parseConfig({ NODE_ENV: 'production' });
    expect(production.ok ? '' : production.problems.join('\n')).toMatch(/VAPID_PUBLIC_KEY/);
  });

  it('makes a pair at first start, kept in DATA_DIR (0600), the same at the next start', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'crw-vapid-'));
    const config = parseConfig({ DATA_DIR: dir });
    if (!config.ok) throw new Error(config.problems.join());
    const first = await vapidKeys(config.config);
    expect(Buffer.from(first.publicKey, 'base64url')).toHaveLength(65);
    expect(statSync(path.join(dir, 'vapid-keys')).mode & 0o777).toBe(0o600);
    expect(await vapidKeys(config.config)).toEqual(first);
    // Not a localhost URL (Apple's push service refuses one): the main site stands in.
    expect(first.subject).toBe('https://example.org');
  });

  it('uses the given pair and subject', async () => {
    const config = parseConfig({ ...pair, VAPID_SUBJECT: 'mailto:ops@example.org' });
    if (!config.ok) throw new Error(config.problems.join());
    expect(await vapidKeys(config.config)).toEqual({
      publicKey: pair.VAPID_PUBLIC_KEY,
      privateKey: pair.VAPID_PRIVATE_KEY,
      subject: 'mailto:ops@example.org',
    });
  });
});

describe('push endpoints', () => {
  it('https on a public host: yes; http, other ports, credentials, private and local hosts: no', () => {
    for (const ok of [
      'https://fcm.googleapis.com/fcm/send/abc',
      'https://updates.push.services.mozilla.com/wpush/v2/abc',
      'https://web.push.apple.com/abc',
      'https://push.example.org:443/x',
      'https://8.8.8.8/x',
    ])
      expect(endpointAllowed(ok, false), ok).toBe(true);
    for (const refused of [
      'http://127.0.0.1:8080/push/x',
      'http://fcm.googleapis.com/x',
      'https://push.example.org:8443/x',
      'https://user:pass@push.example.org/x',
      'https://127.0.0.1/x',
      'https://10.1.2.3/x',
      'https://192.168.0.1/x',
      'https://169.254.169.254/latest',
      'https://[::1]/x',
      'https://[fd00::1]/x',
      'https://[::ffff:10.0.0.1]/x',
      'https://localhost/x',
      'https://metadata/x',
      'https://db.internal/x',
      'ftp://push.example.org/x',
      'not a url',
    ])
      expect(endpointAllowed(refused, false), refused).toBe(false);
  });

  it('outside production, a push service on 127.0.0.1 over http (tests), and nothing else local', () => {
    expect(endpointAllowed('http://127.0.0.1:8080/push/x', true)).toBe(true);
    expect(endpointAllowed('http://localhost:8080/push/x', true)).toBe(false);
    expect(endpointAllowed('http://10.0.0.1/push/x', true)).toBe(false);
  });

  it('a name resolved at send time must be public', () => {
    expect(isPublicAddress('142.250.1.1')).toBe(true);
    expect(isPublicAddress('2a00:1450::1')).toBe(true);
    for (const inside of [
      '127.0.0.1',
      '10.0.0.1',
      '100.64.0.1',
      '::1',
      'fe80::1',
      '::ffff:192.168.1.1',
    ])
      expect(isPublicAddress(inside), inside).toBe(false);
  });
});
