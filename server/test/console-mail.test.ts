// The console's mail outbox: pending, sent and failing mails with the transport's error,
// a retry of a waiting mail that is audited, never a sent one, never a mail's body; and the
// notification mails apart from it, newest first, by status, with their counts and no action.
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
let memberId: string;

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
  memberId = await joinAndConfirm(t.app, db, member);
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

  it('lists the notification mails apart from the outbox, newest first, with their counts', async () => {
    const db = t.services.database.db;
    // A sent credit mail, a skipped round mail, a failing reminder, a waiting "claimed for you",
    // and 60 sent digests: the member's notification mails, none of them in the outbox's list (the
    // waiting ones due in an hour, so the worker leaves them as they are).
    await sql`
      INSERT INTO notification_mails
        (user_id, to_address, topic, template, params, subject, status, attempts, last_error, sent_at,
         next_attempt_at)
      VALUES
        (${memberId}, 'note-credit@example.test', 'credits', 'credit', '{"ledgerId": 1}',
         '+100 CAPs: Maya joined', 'sent', 1, NULL, now(), now()),
        (${memberId}, 'note-round@example.test', 'rounds', 'round', '{"round": 1, "amount": "1"}',
         NULL, 'skipped', 1, NULL, NULL, now()),
        (${memberId}, 'note-reminder@example.test', 'rounds', 'reminder', '{"round": 1, "days": 7}',
         NULL, 'pending', 2, 'connect ECONNREFUSED', NULL, now() + interval '1 hour')`.execute(db);
    await sql`
      INSERT INTO notification_mails (user_id, to_address, topic, template, params, subject, status, attempts, sent_at)
      SELECT ${memberId}, 'digest' || g || '@example.test', 'credits', 'digest', ${`{"secret": "${BODY_SECRET}"}`}::jsonb,
             'Your daily digest', 'sent', 1, now()
        FROM generate_series(1, 60) g`.execute(db);
    await sql`
      INSERT INTO notification_mails (user_id, to_address, topic, template, params, next_attempt_at)
      VALUES (${memberId}, 'note-claimed@example.test', 'rounds', 'claimed-for-you',
              '{"claimId": 1}', now() + interval '1 hour')`.execute(db);
    const notes = async (query = '') => {
      const res = await get(`/api/console/mail/notifications${query}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).not.toContain(BODY_SECRET); // never the mail's figures
      return res.json() as {
        mails: Array<Record<string, unknown> & { id: number; to: string; status: string }>;
        nextBefore: number | null;
        counts: Record<string, number | boolean>;
      };
    };
    const first = await notes();
    expect(first.mails).toHaveLength(MAIL_PAGE_SIZE);
    const ids = first.mails.map((m) => m.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(first.mails[0]).toEqual({
      id: expect.any(Number),
      to: 'note-claimed@example.test',
      topic: 'rounds',
      template: 'claimed-for-you',
      subject: null,
      status: 'pending',
      attempts: 0,
      lastError: null,
      createdAt: expect.any(String),
      sentAt: null,
    });
    expect(first.counts).toEqual({
      pending: 1,
      failing: 1,
      sent: 61,
      sentCapped: false,
      skipped: 1,
      skippedCapped: false,
    });
    const second = await notes(`?before=${first.nextBefore}`);
    expect(second.nextBefore).toBeNull();
    expect(new Set([...ids, ...second.mails.map((m) => m.id)]).size).toBe(64);

    const failing = await notes('?status=failing');
    expect(failing.mails).toEqual([
      expect.objectContaining({
        to: 'note-reminder@example.test',
        template: 'reminder',
        status: 'failing',
        attempts: 2,
        lastError: 'connect ECONNREFUSED',
      }),
    ]);
    expect((await notes('?status=skipped')).mails).toEqual([
      expect.objectContaining({ to: 'note-round@example.test', status: 'skipped', subject: null }),
    ]);
    expect((await notes('?status=pending')).mails.map((m) => m.to)).toEqual([
      'note-claimed@example.test',
    ]);
    expect((await get('/api/console/mail/notifications?status=lost')).statusCode).toBe(400);
    // The outbox's list holds account mails only.
    expect(JSON.stringify(await page())).not.toContain('note-');
    // No action on a notification mail: its id is not an outbox mail's.
    const claimedId = first.mails[0]!.id;
    const outboxIds = await db.selectFrom('mail_outbox').select('id').execute();
    if (!outboxIds.some((r) => Number(r.id) === claimedId))
      expect((await retry(claimedId)).statusCode).toBe(404);

    for (const res of [
      await get('/api/console/mail/notifications', memberCookie),
      await get('/api/console/mail/notifications?status=sent', memberCookie),
    ])
      expect([res.statusCode, res.json().code]).toEqual([403, 'not_operator']);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/console/mail/notifications' })).statusCode,
    ).toBe(401);
  });
});
