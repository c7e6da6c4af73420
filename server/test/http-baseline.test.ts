import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    chain: false,
    extend: (app) =>
      app.get('/api/test-only/explode', async () => {
        throw new Error('database password is hunter2');
      }),
  });
});
afterAll(() => t.close());

describe('GET /api/health', () => {
  it('answers 200 with the database up, the mail transport and the version', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'ok',
      version: '0.1.0',
      database: { status: 'up' },
      mail: { transport: 'dev-mailbox', pending: 0 },
    });
  });
});

describe('bad input', () => {
  it('malformed JSON → 400 invalid_request', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/dev/mail',
      headers: { 'content-type': 'application/json' },
      payload: '{"to": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'invalid_request', message: 'The request is not valid.' });
  });

  it('a body that fails its schema → 400 invalid_request naming the field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/dev/mail',
      payload: { to: 'not-an-email', subject: 'x', text: 'y' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_request');
    expect(res.json().message).toContain('to');
  });

  it('a body over the limit → 413 payload_too_large', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/dev/mail',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ to: 'a@b.co', subject: 's', text: 'x'.repeat(200_000) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ code: 'payload_too_large', message: 'The request is too large.' });
  });

  it('an unknown API path → 404 JSON', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/no-such-thing',
      headers: { accept: 'text/html' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toEqual({ code: 'not_found', message: 'Not found.' });
  });

  it('a thrown error → 500 with a generic body, the cause logged with the request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/test-only/explode' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      code: 'internal_error',
      message: 'Something went wrong on our side. Please try again.',
    });
    expect(res.body).not.toContain('hunter2');
    const requestId = res.headers['x-request-id'];
    expect(requestId).toBeTruthy();
    const logged = t.logs.find((l) => l.msg === 'request failed');
    expect(logged).toMatchObject({ reqId: requestId, level: 50 });
    expect(JSON.stringify(logged)).toContain('hunter2');
  });
});

describe('security headers and caching', () => {
  it('sends a CSP with no inline script, frame-ancestors none, nosniff and a referrer policy', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('sends HSTS only over HTTPS', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const proxied = await buildTestApp({ chain: false, env: { TRUST_PROXY: '1' } });
    try {
      const secure = await proxied.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(secure.headers['strict-transport-security']).toContain('max-age=');
    } finally {
      await proxied.close();
    }
  });

  it('marks API responses Cache-Control: no-store', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('echoes a caller-supplied request id', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'trace-123' },
    });
    expect(res.headers['x-request-id']).toBe('trace-123');
  });
});

describe('the SPA and the OpenAPI document', () => {
  it('serves index.html for any page route, so the client router decides', async () => {
    for (const url of ['/', '/dashboard', '/r/ABC', '/some/unknown/page']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves a page to clients that accept anything (curl), JSON 404 to clients that want JSON only', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/rcb', headers: { accept: '*/*' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
    const json = await t.app.inject({
      method: 'GET',
      url: '/rcb',
      headers: { accept: 'application/json' },
    });
    expect(json.statusCode).toBe(404);
  });

  it('sends the pre-compressed copy of an asset to a client that accepts it', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
  });

  it('caches hashed assets for a year', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('publishes the OpenAPI document at /api/docs/json', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().openapi).toBe('3.1.0');
    expect(Object.keys(res.json().paths)).toEqual(
      expect.arrayContaining([
        '/api/health',
        '/api/register',
        '/api/me',
        '/api/referrals/network',
        '/api/operator/care-actions',
      ]),
    );
  });
});
