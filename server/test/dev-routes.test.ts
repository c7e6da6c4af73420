// /dev/* (the dev mailbox, the test-only account deletion) holds every mailed link and can send
// mail as the product: it exists only with the dev mailbox, and only for this machine.
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

const OUTSIDER = '203.0.113.7';
const DEV_ROUTES: InjectOptions[] = [
  { method: 'GET', url: '/dev/mail' },
  { method: 'GET', url: '/dev/mail.json' },
  {
    method: 'POST',
    url: '/dev/mail',
    payload: { to: 'someone@example.test', subject: 'Hello', text: 'Hi' },
  },
  { method: 'DELETE', url: '/dev/account' },
];

let t: TestApp;
// The outsider's network counts as a trusted proxy, so request.ip can be made to say 127.0.0.1.
beforeAll(async () => {
  t = await buildTestApp({ chain: false, env: { TRUST_PROXY: '203.0.113.0/24' } });
});
afterAll(() => t?.close());

describe(`/dev/* with the dev mailbox (${testDbKind})`, () => {
  it('answers a client on this machine, over IPv4 and IPv6', async () => {
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const sent = await t.app.inject({ ...DEV_ROUTES[2], remoteAddress });
      expect(sent.statusCode, remoteAddress).toBe(202);
      expect(
        (await t.app.inject({ ...DEV_ROUTES[1], remoteAddress })).statusCode,
        remoteAddress,
      ).toBe(200);
    }
  });

  it('is not found for any other client, whatever X-Forwarded-For says', async () => {
    for (const route of DEV_ROUTES) {
      for (const headers of [{}, { 'x-forwarded-for': '127.0.0.1' }]) {
        const res = await t.app.inject({ ...route, remoteAddress: OUTSIDER, headers });
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(404);
        expect(res.json()).toEqual({ code: 'not_found', message: 'Not found.' });
      }
    }
  });

  it('is not found for a visitor forwarded by a reverse proxy on this machine', async () => {
    for (const headers of [
      { 'x-forwarded-for': OUTSIDER },
      { forwarded: `for=${OUTSIDER}` },
      { 'x-real-ip': OUTSIDER },
    ]) {
      expect(
        (await t.app.inject({ ...DEV_ROUTES[1], remoteAddress: '127.0.0.1', headers })).statusCode,
      ).toBe(404);
    }
  });
});

describe(`/dev/* and the Host header (${testDbKind})`, () => {
  it('is not found for a page on another site that resolves its name to this machine (DNS rebinding)', async () => {
    const outbox = () => t.services.database.db.selectFrom('mail_outbox').select('id').execute();
    const before = await outbox();
    for (const host of [
      'attacker.example',
      'attacker.example:3000',
      'localhost.attacker.example',
      '127.0.0.1.attacker.example',
      'evil.example:80@localhost',
      'localhost:3000.attacker.example',
    ]) {
      for (const route of DEV_ROUTES) {
        const res = await t.app.inject({
          ...route,
          remoteAddress: '127.0.0.1',
          headers: { host },
        });
        expect(res.statusCode, `${host} ${route.method} ${route.url}`).toBe(404);
        expect(res.json()).toEqual({ code: 'not_found', message: 'Not found.' });
      }
    }
    expect(await outbox()).toEqual(before);
  });

  it('answers this machine by its loopback names, with any port', async () => {
    for (const host of [
      'localhost',
      'localhost:3000',
      '127.0.0.1:8080',
      '[::1]:3000',
      '[::1]',
      'LOCALHOST:5173',
    ]) {
      const res = await t.app.inject({
        ...DEV_ROUTES[1],
        remoteAddress: '127.0.0.1',
        headers: { host },
      });
      expect(res.statusCode, host).toBe(200);
    }
  });
});

describe(`/dev/* with SMTP delivery (${testDbKind})`, () => {
  it('does not exist, so it can neither relay mail nor show it', async () => {
    const smtp = await buildTestApp({ chain: false, env: { SMTP_URL: 'smtp://127.0.0.1:2525' } });
    try {
      for (const route of DEV_ROUTES) {
        expect(
          (await smtp.app.inject({ ...route, remoteAddress: '127.0.0.1' })).statusCode,
          `${route.method} ${route.url}`,
        ).toBe(404);
      }
      expect(
        await smtp.services.database.db.selectFrom('mail_outbox').select('id').execute(),
      ).toEqual([]);
    } finally {
      await smtp.close();
    }
  });
});
