// The operator audit log keeps no deleted member's e-mail address: it names members and operators
// by id (an id that names no one once the account is gone), and the database writes any address
// an action carries — an operator's free text, a mail server's error — as "[e-mail]"
// (docs/security.md, "Deleting the account"). What was done, when and on which id stays.
import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateAuthTables } from '../src/infra/identity/auth';
import { migrate, migrationsDir } from '../src/infra/db/migrate';
import { enqueueMail } from '../src/infra/mail/outbox';
import { consoleOperatorCookie } from './helpers/console-operator';
import {
  cloneMemberKeys,
  makeMemberKeys,
  ORIGIN,
  registerBody,
  signedInCookie,
  type MemberKeys,
} from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { openTestDatabase, testDbKind } from './helpers/test-database';

let t: TestApp;
let base: MemberKeys;
let operator: MemberKeys;
let consoleCookie: string;

beforeAll(async () => {
  t = await buildTestApp({
    chain: false,
    env: { PUBLIC_URL: ORIGIN, AUTH_RATE_LIMIT_PER_IP: '500', AUTH_RATE_LIMIT_PER_EMAIL: '50' },
  });
  base = await makeMemberKeys();
  operator = await cloneMemberKeys(base);
  consoleCookie = await consoleOperatorCookie(
    t.app,
    t.services.database.db,
    operator,
    t.services.operatorKey,
  );
}, 120_000);
afterAll(() => t?.close());

const db = () => t.services.database.db;
const send = (method: 'GET' | 'POST' | 'DELETE', url: string, headers = {}, payload?: object) =>
  t.app.inject({ method, url, headers: { origin: ORIGIN, ...headers }, payload });
const asOperator = (
  method: 'GET' | 'POST',
  url: string,
  payload?: object,
  cookie = consoleCookie,
) => send(method, url, { cookie, 'idempotency-key': randomUUID() }, payload);
const asKey = (url: string, payload: object) =>
  send('POST', url, { authorization: `Bearer ${t.services.operatorKey}` }, payload);

async function confirmFromMail(keys: MemberKeys): Promise<void> {
  const { text_body: text } = await db()
    .selectFrom('mail_outbox')
    .select('text_body')
    .where('to_address', '=', keys.email)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const link = new URL(/https?:\/\/\S+\/auth\/verify-email\S*/.exec(text)![0]);
  expect((await send('GET', `${link.pathname}${link.search}`)).statusCode).toBe(302);
}

async function deleteAccount(keys: MemberKeys, signedIn?: string): Promise<void> {
  const cookie = signedIn ?? (await signedInCookie(t.app, keys));
  const res = await send('DELETE', '/api/account', { cookie }, { authSecret: keys.authSecret });
  expect(res.statusCode, res.body).toBe(200);
}

/** The log as the console shows it, as it exports it, and as the table holds it. */
async function everyCopyOfTheLog(): Promise<{ json: string; csv: string; rows: string }> {
  const json = await asOperator('GET', '/api/console/audit');
  expect(json.statusCode).toBe(200);
  const csv = await asOperator('GET', '/api/console/audit.csv');
  expect(csv.statusCode).toBe(200);
  const rows = await sql<{ row: string }>`SELECT t::text AS row FROM operator_audit t`.execute(
    db(),
  );
  return { json: json.body, csv: csv.body, rows: rows.rows.map((r) => r.row).join('\n') };
}

describe(`the audit log after a member deletes their account (${testDbKind})`, () => {
  it("keeps every action on the member, by id, and none of the member's e-mail", async () => {
    const member = await cloneMemberKeys(base);
    const registered = await send('POST', '/api/register', {}, await registerBody(t.app, member));
    expect(registered.statusCode).toBe(201);
    const memberId = registered.json().userId as string;

    // A new confirmation link, sent by an operator; then the member confirms.
    const resent = await asOperator('POST', `/api/console/members/${memberId}/resend-confirmation`);
    expect(resent.statusCode, resent.body).toBe(200);
    await confirmFromMail(member);
    expect((await asOperator('GET', `/api/console/members/${memberId}`)).statusCode).toBe(200);
    const credited = await asOperator('POST', `/api/console/members/${memberId}/care-actions`, {
      caps: 5,
      description: `Thanks to ${member.email.toUpperCase()} for the stall`,
    });
    expect(credited.statusCode, credited.body).toBe(201);
    // A mail to the member that the mail server refused, naming the address, retried.
    const mailId = await enqueueMail(db(), { to: member.email, subject: 'Hello', text: 'Hi' });
    await db()
      .updateTable('mail_outbox')
      .set({
        attempts: 3,
        last_error: `550 5.1.1 <${member.email}>: Recipient address rejected`,
        next_attempt_at: sql<Date>`now() + interval '1 hour'`,
      })
      .where('id', '=', mailId)
      .execute();
    const retried = await asOperator('POST', `/api/console/mail/${mailId}/retry`, {});
    expect(retried.statusCode, retried.body).toBe(200);
    // The role granted and taken back with the operator key, by e-mail.
    for (const role of [true, false]) {
      const res = await asKey('/api/operator/operators', { email: member.email, operator: role });
      expect(res.statusCode, res.body).toBe(200);
    }

    await deleteAccount(member);

    const log = await everyCopyOfTheLog();
    for (const [copy, text] of Object.entries(log))
      expect({ copy, holds: text.toLowerCase().includes(member.email.toLowerCase()) }).toEqual({
        copy,
        holds: false,
      });
    const entries = JSON.parse(log.json).entries as Array<{ action: string; target: string }>;
    expect(entries.filter((e) => e.target === memberId).map((e) => e.action)).toEqual(
      expect.arrayContaining([
        'member.resend-confirmation',
        'member.view',
        'care-action.credit',
        'operator.grant',
        'operator.revoke',
      ]),
    );
    expect(log.json).toContain('[e-mail]'); // the free text and the mail error, without the address
  });

  it("forgets an operator's e-mail once they delete their account; their actions stay", async () => {
    const leaving = await cloneMemberKeys(base);
    const leavingCookie = await consoleOperatorCookie(t.app, db(), leaving, t.services.operatorKey);
    const operatorId = (await asOperator('GET', '/api/console/me', undefined, leavingCookie)).json()
      .userId as string;
    expect(
      (await asOperator('GET', `/api/console/members/${operatorId}`, undefined, leavingCookie))
        .statusCode,
    ).toBe(200);
    const before = JSON.parse((await everyCopyOfTheLog()).json).entries as Array<{
      action: string;
      target: string;
      operatorEmail: string | null;
    }>;
    expect(before.find((e) => e.target === operatorId && e.action === 'member.view')).toMatchObject(
      { operatorEmail: leaving.email },
    );

    await deleteAccount(leaving, leavingCookie);

    const log = await everyCopyOfTheLog();
    for (const text of Object.values(log))
      expect(text.toLowerCase()).not.toContain(leaving.email.toLowerCase());
    const after = JSON.parse(log.json).entries as typeof before;
    expect(after.find((e) => e.target === operatorId && e.action === 'member.view')).toMatchObject({
      operatorEmail: null,
    });
    // The operator who stays is still named.
    expect(after.some((e) => e.operatorEmail === operator.email)).toBe(true);
  });
});

describe(`the rows written before the log stopped keeping e-mails (${testDbKind})`, () => {
  it('lose every address and keep everything else when the migration runs', async () => {
    const test = await openTestDatabase({ migrated: false });
    const earlier = await mkdtemp(path.join(tmpdir(), 'crw-migrations-'));
    try {
      const { database } = test;
      for (const file of (await readdir(migrationsDir)).filter((f) => f < '0022'))
        await cp(path.join(migrationsDir, file), path.join(earlier, file));
      await migrateAuthTables(database);
      await migrate(database, earlier);
      await sql`
        INSERT INTO operator_audit (actor, operator_id, operator_email, action, target, detail)
        VALUES ('api-key', NULL, NULL, 'operator.grant', 'member-1',
                '{"email": "Ann@Example.org", "changed": true}'),
               ('console', 'operator-1', 'op@example.org', 'mail.retry', '7',
                '{"to": "ann@example.org", "lastError": "550 <ann@example.org> rejected", "n": [1, "b@c.io"]}'),
               ('console', 'operator-1', 'op@example.org', 'member.view', 'member-1', '{}')
      `.execute(database.db);
      await migrate(database);
      const rows = await sql<{ action: string; target: string; detail: unknown; row: string }>`
        SELECT action, target, detail, t::text AS row FROM operator_audit t ORDER BY id`.execute(
        database.db,
      );
      expect(rows.rows.map(({ row: _, ...rest }) => rest)).toEqual([
        { action: 'operator.grant', target: 'member-1', detail: { changed: true } },
        {
          action: 'mail.retry',
          target: '7',
          detail: { lastError: '550 <[e-mail]> rejected', n: [1, '[e-mail]'] },
        },
        { action: 'member.view', target: 'member-1', detail: {} },
      ]);
      expect(rows.rows.map((r) => r.row).join('\n')).not.toMatch(/@/);
      await expect(sql`DELETE FROM operator_audit`.execute(database.db)).rejects.toThrow(
        /append-only/,
      );
    } finally {
      await rm(earlier, { recursive: true, force: true });
      await test.drop();
    }
  }, 60_000);
});
