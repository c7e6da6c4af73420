// The client's address behind a real reverse proxy: the app listens on a port, a tiny proxy in
// front of it appends the connecting address to X-Forwarded-For as nginx does, and clients send
// whatever X-Forwarded-For they like. The per-IP attempt limit must count the real client.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, uniqueEmail } from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

const PER_IP = 5;
/** The proxy reaches the app from its own loopback address, as a proxy on another host would. */
const PROXY_ADDRESS = '127.0.0.2';

let t: TestApp;
let proxy: http.Server;

/** nginx's `proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for`, and nothing else. */
function forwardingProxy(appPort: number): http.Server {
  return http.createServer((request, response) => {
    const forwarded = [request.headers['x-forwarded-for'], request.socket.remoteAddress]
      .filter(Boolean)
      .join(', ');
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: appPort,
        localAddress: PROXY_ADDRESS,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, 'x-forwarded-for': forwarded },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.writeHead(502).end());
    request.pipe(upstream);
  });
}

/** A sign-in with a wrong secret for a fresh e-mail (so only the per-IP limit applies), from `client`. */
function signInThroughProxy(client: string, spoofed: string): Promise<number> {
  const body = JSON.stringify({ email: uniqueEmail('proxied'), password: 'c'.repeat(64) });
  const { port } = proxy.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        localAddress: client,
        method: 'POST',
        path: '/auth/sign-in/email',
        headers: { 'content-type': 'application/json', origin: ORIGIN, 'x-forwarded-for': spoofed },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

beforeAll(async () => {
  t = await buildTestApp({
    chain: false,
    env: { TRUST_PROXY: '1', AUTH_RATE_LIMIT_PER_IP: String(PER_IP) },
  });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  proxy = forwardingProxy((t.app.server.address() as AddressInfo).port);
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  if (proxy) await new Promise((resolve) => proxy.close(resolve));
  await t?.close();
});

describe(`the client address behind one proxy, TRUST_PROXY=1 (${testDbKind})`, () => {
  it('limits a client that rotates a spoofed X-Forwarded-For', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= PER_IP + 3; i++)
      statuses.push(await signInThroughProxy('127.0.0.1', `198.51.100.${i}`));
    expect(statuses).toEqual([...Array<number>(PER_IP).fill(401), 429, 429, 429]);
  });

  it('gives another client behind the same proxy its own allowance', async () => {
    expect(await signInThroughProxy('127.0.0.3', '198.51.100.1')).toBe(401);
  });
});
