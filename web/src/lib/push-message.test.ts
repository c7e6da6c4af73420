import { describe, expect, it } from 'vitest';
import { appPath, readPushMessage } from './push-message';

describe('a push as the service worker shows it', () => {
  it('reads title, body and the app path', () => {
    expect(
      readPushMessage(
        JSON.stringify({
          title: 'Round 2: 10.00 REME to claim',
          body: 'Round 2 is out.',
          url: '/claim',
        }),
      ),
    ).toEqual({ title: 'Round 2: 10.00 REME to claim', body: 'Round 2 is out.', url: '/claim' });
  });

  it('shows something plain for an empty or broken push', () => {
    for (const json of [null, '', 'not json', '42', '{"title":""}'])
      expect(readPushMessage(json).title, String(json)).toBe('REME Wallet');
  });

  it('opens only a path of this app', () => {
    expect(appPath('/claim?round=2')).toBe('/claim?round=2');
    for (const bad of [
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      'claim',
      7,
      null,
    ])
      expect(appPath(bad), String(bad)).toBe('/dashboard');
  });
});
