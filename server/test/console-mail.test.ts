// The console's mail outbox: pending, sent and failing mails with the transport's error,
// a retry of a waiting mail that is audited, never a sent one, never a mail's body.
import { randomUUID } from 'node:crypto';
import { MAIL_PAGE_SIZE } from '@crw/core/console';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueMail } from '../src/infra/mail/outbox';
import {
  cloneMemberKeys,
  joinAndConfirm,
  makeMemberKeys,
  ORIGIN,
  signedInCookie,
} from './helpers/members';
import { freePort } from './helpers/smtp-peer';
import { consoleOperatorCookie } from './helpers/console-operator';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

interface Mail {
  id: number;
  to: string;
  subject: string;
  status: 'pending' | 'failing' | 'sent';
  attempts: number;
  lastError: string | null;
  createdAt: string;
  nextAttemptAt: string | null;
  sentAt: string | null;
}
interface MailPage {
  mails: Mail[];
  nextBefore: number | null;
  counts: { pending: number; failing: number; sent: number; sentCapped: boolean };
}

/** Text only a mail's body holds: no console answer may carry it. */
const BODY_SECRET = 'body-secret-7f3a';

let t: TestApp;
let memberCookie: string;
let consoleCookie: string;
let failingId: number;
let sentId: number;

const get = (url: string, cookie = consoleCookie) =>
  t.app.inject({ method: 'GET', url, headers: { cookie } });
const retry = (id: number | string, cookie = consoleCookie) =>
  t.app.inject({
    method: 'POST',
    url: `/api/console/mail/${id}/retry`,
    headers: { origin: ORIGIN, cookie },
    payload: {},
  });
const page = async (query = '') => {
  const res = await get(`/api/console/mail${query}`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.body).not.toContain(BODY_SECRET);
  expect(res.body).not.toContain('verify-email');
  return res.json() as MailPage;
};

beforeAll(async () => {
  // Mail goes to an SMTP port where nothing listens, so delivery fails with the transport's error.
  t = await buildTestApp({
    chain: false,
    env: {
      PUBLIC_URL: ORIGIN,
      SMTP_URL: `smtp://mailer:s3cret@127.0.0.1:${await freePort()}`,
      AUTH_RATE_LIMIT_PER_IP: '500',
      AUTH_RATE_LIMIT_PER_EMAIL: '50',
    },
    outbox: { pollIntervalMs: 50, retryBaseMs: 50 },
  });
  const db = t.services.database.db;
  const base = await makeMemberKeys();
  const operator = await cloneMemberKeys(base);
  const member = await cloneMemberKeys(base);
  await joinAndConfirm(t.app, db, member);
  memberCookie = await signedInCookie(t.app, member);

  consoleCookie = await consoleOperatorCookie(t.app, db, operator, t.services.operatorKey);

  failingId = await enqueueMail(db, {
    to: 'failing@example.test',
    subject: 'Your failing mail',
    text: `Open ${BODY_SECRET}`,
    html: `<p>${BODY_SECRET}</p>`,
  });
  sentId = await enqueueMail(db, {
    to: 'sent@example.test',
    subject: 'Your sent mail',
    text: `Open ${BODY_SECRET}`,
  });
  await db
    .updateTable('mail_outbox')
    .set({ status: 'sent', attempts: 1, sent_at: sql<Date>`now()` })
    .where('id', '=', sentId)
    .execute();
  t.services.worker.start();
}, 120_000);
afterAll(() => t?.close());

describe(`the console's mail outbox (${testDbKind})`, () => {
  it('shows a failing mail with the transport’s error, and never a body', async () => {
    await expect
      .poll(
        async () =>
          (await page('?status=failing')).mails.find((m) => m.id === failingId)?.lastError ?? '',
        { timeout: 20_000 },
      )
      .toMatch(/ECONNREFUSED|connect/i);
    const failing = await page('?status=failing');
    const mail = failing.mails.find((m) => m.id === failingId)!;
    expect(mail).toMatchObject({
      to: 'failing@example.test',
      subject: 'Your failing mail',
      status: 'failing',
      sentAt: null,
    });
    expect(mail.attempts).toBeGreaterThan(0);
    expect(mail.nextAttemptAt).toEqual(expect.any(String));
    expect(Object.keys(mail).sort()).toEqual(
      [
        'attempts',
        'createdAt',
        'id',
        'lastError',
        'nextAttemptAt',
        'sentAt',
        'status',
        'subject',
        'to',
      ].sort(),
    );
    expect(failing.mails.every((m) => m.status === 'failing')).toBe(true);
    expect(failing.counts.failing).toBeGreaterThanOrEqual(1);

    const all = await page();
    expect(all.mails.map((m) => m.id)).toEqual(expect.arrayContaining([failingId, sentId]));
    const ids = all.mails.map((m) => m.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a)); // newest first
    expect(all.mails.find((m) => m.id === sentId)).toMatchObject({
      status: 'sent',
      nextAttemptAt: null,
      sentAt: expect.any(String),
    });
    expect((await page('?status=pending')).mails.every((m) => m.status === 'pending')).toBe(true);
    expect((await get('/api/console/mail?status=lost')).statusCode).toBe(400);
  });

  it('pages the sent mails 50 at a time, newest first, each once; counts them', async () => {
    const db = t.services.database.db;
    await sql`
      INSERT INTO mail_outbox (to_address, subject, text_body, status, attempts, sent_at)
      SELECT 'many' || g || '@example.test', 'Mail ' || g, ${BODY_SECRET}, 'sent', 1, now()
        FROM generate_series(1, 60) g`.execute(db);
    const first = await page('?status=sent');
    expect(first.mails).toHaveLength(MAIL_PAGE_SIZE);
    expect(first.nextBefore).toBe(first.mails[MAIL_PAGE_SIZE - 1]!.id);
    const second = await page(`?status=sent&before=${first.nextBefore}`);
    expect(second.nextBefore).toBeNull();
    const seen = [...first.mails, ...second.mails].map((m) => m.id);
    expect(new Set(seen).size).toBe(61);
    expect(seen).toContain(sentId);
    expect(first.counts).toMatchObject({ sent: 61, sentCapped: false });
    expect(first.counts.failing).toBeGreaterThanOrEqual(1);
  });

  it('retries a failing mail now, wakes the worker and audits it', async () => {
    const db = t.services.database.db;
    // A long backoff: without the retry the worker would not try it again for an hour.
    await db
      .updateTable('mail_outbox')
      .set({ next_attempt_at: sql<Date>`now() + interval '1 hour'` })
      .where('id', '=', failingId)
      .execute();
    const before = await db
      .selectFrom('mail_outbox')
      .select('attempts')
      .where('id', '=', failingId)
      .executeTakeFirstOrThrow();
    const key = randomUUID();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/console/mail/${failingId}/retry`,
      headers: { origin: ORIGIN, cookie: consoleCookie, 'idempotency-key': key },
      payload: {},
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain(BODY_SECRET);
    const { mail } = res.json() as { mail: Mail };
    expect(mail).toMatchObject({ id: failingId, status: 'failing' });
    expect(Date.parse(mail.nextAttemptAt!)).toBeLessThanOrEqual(Date.now() + 1_000);
    // The worker tried it again at once (and failed again: nothing listens).
    await expect
      .poll(
        async () =>
          (
            await db
              .selectFrom('mail_outbox')
              .select('attempts')
              .where('id', '=', failingId)
              .executeTakeFirstOrThrow()
          ).attempts,
        { timeout: 10_000 },
      )
      .toBeGreaterThan(before.attempts);

    const audit = (await get('/api/console/audit')).json().entries as Array<{
      action: string;
      target: string;
      actor: string;
      operatorEmail: string;
      idempotencyKey: string | null;
      detail: Record<string, unknown>;
    }>;
    const entry = audit.find((e) => e.action === 'mail.retry');
    expect(entry).toMatchObject({
      target: String(failingId),
      actor: 'console',
      idempotencyKey: key,
      // The recipient by member id (none here), never by address: docs/security.md.
      detail: { toMember: null, subject: 'Your failing mail' },
    });
    expect(JSON.stringify(entry)).not.toContain('failing@example.test');
    expect(entry!.operatorEmail).toMatch(/@example\.test$/);
    expect(JSON.stringify(audit)).not.toContain(BODY_SECRET);
  });

  it('refuses a sent mail (409) and an unknown one (404)', async () => {
    const sent = await retry(sentId);
    expect(sent.statusCode, sent.body).toBe(409);
    expect(sent.json().code).toBe('conflict');
    for (const id of ['999999999', 'abc', '0', '99999999999999999999']) {
      const res = await retry(id);
      expect([id, res.statusCode, res.json().code]).toEqual([id, 404, 'not_found']);
    }
    const audited = (await get('/api/console/audit')).json().entries as Array<{
      action: string;
      target: string;
    }>;
    expect(audited.filter((e) => e.action === 'mail.retry').map((e) => e.target)).toEqual([
      String(failingId),
    ]);
  });

  it('a member gets 403 and a stranger 401', async () => {
    for (const res of [
      await get('/api/console/mail', memberCookie),
      await retry(failingId, memberCookie),
    ])
      expect([res.statusCode, res.json().code]).toEqual([403, 'not_operator']);
    const stranger = await t.app.inject({ method: 'GET', url: '/api/console/mail' });
    expect(stranger.statusCode).toBe(401);
    expect(stranger.body).not.toContain(BODY_SECRET);
  });
});
