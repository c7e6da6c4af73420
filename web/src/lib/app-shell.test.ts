import { describe, expect, it } from 'vitest';
import { shellRequest } from './app-shell';

const origin = 'https://wallet.example.org';
const get = (path: string, mode = 'cors') =>
  shellRequest({ method: 'GET', mode, url: `${origin}${path}` }, origin);

describe('what the service worker may answer and keep', () => {
  it('pages of the app are pages; built scripts and styles are assets', () => {
    expect(get('/dashboard', 'navigate')).toBe('page');
    expect(get('/', 'navigate')).toBe('page');
    expect(get('/r/ABCD1234', 'navigate')).toBe('page');
    expect(get('/assets/index-Cd6ymHof.js')).toBe('asset');
    expect(get('/assets/index-BPhddADL.css')).toBe('asset');
  });

  it('never the API (the keystore comes with /api/me), sign-in, the chain relay, the dev mailbox or the event stream', () => {
    for (const path of [
      '/api/me',
      '/api/events',
      '/api/config',
      '/auth/sign-in/email',
      '/auth/verify-email?token=t',
      '/rpc',
      '/dev/mail',
      '/dev/mail.json',
      '/api',
      '/auth',
    ]) {
      expect(get(path), path).toBeNull();
      expect(get(path, 'navigate'), `${path} opened as a page`).toBeNull();
    }
  });

  it('never anything sent, from elsewhere, or not a built file', () => {
    expect(
      shellRequest(
        { method: 'POST', mode: 'cors', url: `${origin}/assets/index-Cd6ymHof.js` },
        origin,
      ),
    ).toBeNull();
    expect(
      shellRequest(
        { method: 'GET', mode: 'navigate', url: 'https://elsewhere.example/dashboard' },
        origin,
      ),
    ).toBeNull();
    expect(get('/assets/index-Cd6ymHof.js.map')).toBeNull();
    expect(get('/assets/index-Cd6ymHof.js?v=2')).toBeNull();
    expect(get('/manifest.webmanifest')).toBeNull();
    expect(get('/icons/icon-192.png')).toBeNull();
  });
});
