// The operator console's API: granted by the Bearer key (the CLI), open only to an
// operator whose session passed two-factor sign-in, every action in an append-only audit log.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cloneMemberKeys,
  cookieOf,
  joinAndConfirm,
  makeMemberKeys,
  ORIGIN,
  registerBody,
  signedInCookie,
  signIn,
  type MemberKeys,
} from './helpers/members';
import { LOCK_KEYS } from '../src/infra/db/lock-keys';
import { buildTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
let base: MemberKeys;
let operator: MemberKeys;
let member: MemberKeys;
let memberId: string;
let memberCookie: string;
let totp: TOTP;
let consoleCookie: string;
let cookieBeforeTwoFactor: string;

beforeAll(async () => {
  t = await buildTestApp({
    env: { PUBLIC_URL: ORIGIN, AUTH_RATE_LIMIT_PER_IP: '500', AUTH_RATE_LIMIT_PER_EMAIL: '50' },
  });
  base = await makeMemberKeys();
  operator = await cloneMemberKeys(base);
  await joinAndConfirm(t.app, t.services.database.db, operator);
  member = await cloneMemberKeys(base);
  memberId = await joinAndConfirm(t.app, t.services.database.db, member);
  memberCookie = await signedInCookie(t.app, member);
}, 120_000);
afterAll(() => t?.close());

const bearer = () => ({ authorization: `Bearer ${t.services.operatorKey}` });
const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { origin: ORIGIN, ...headers },
    payload: payload as object,
  });
const grant = (email: string, role = true) =>
  post('/api/operator/operators', { email, operator: role }, bearer());

/** Every console route in the OpenAPI document, with a stand-in id. */
async function consoleRoutes() {
  const doc = (await get('/api/docs/json')).json() as {
    paths: Record<string, Record<string, { requestBody?: unknown }>>;
  };
  return Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/api/console'))
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        method: method.toUpperCase() as 'GET' | 'POST',
        url: path.replace(/\{[^}]+\}/g, memberId),
        body: op.requestBody ? { caps: 5, description: 'x' } : undefined,
      })),
    );
}

/** The phases a round's progress stream sends until it closes. */
async function progressPhases(): Promise<string[]> {
  const stream = await t.app.inject({
    method: 'GET',
    url: '/api/console/rounds/progress',
    headers: { cookie: consoleCookie },
  });
  return [...stream.body.matchAll(/data: (\{.*\})/g)].map((m) => JSON.parse(m[1]!).phase);
}

interface AuditRow {
  action: string;
  actor: string;
  operatorEmail: string | null;
  target: string | null;
  detail: Record<string, unknown>;
}

async function askEvery(cookie: string | undefined) {
  const answers: Array<[string, number, string]> = [];
  for (const r of await consoleRoutes()) {
    const res = await t.app.inject({
      method: r.method,
      url: r.url,
      headers: {
        origin: ORIGIN,
        'idempotency-key': randomUUID(),
        ...(cookie ? { cookie } : {}),
      },
      ...(r.body ? { payload: r.body } : {}),
    });
    answers.push([
      `${r.method} ${r.url}`,
      res.statusCode,
      res.statusCode < 300 ? '' : res.json().code,
    ]);
  }
  return answers;
}

describe('who may open the console', () => {
  it('lists at least the members, member page, actions and audit routes', async () => {
    expect((await consoleRoutes()).length).toBeGreaterThanOrEqual(7);
  });

  it('a stranger gets 401 and a member 403 not_operator on every console route', async () => {
    const routes = (await consoleRoutes()).map((r) => `${r.method} ${r.url}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        'POST /api/console/rounds/publish',
        'POST /api/console/rounds/dry-run/refresh',
      ]),
    );
    for (const [route, status, code] of await askEvery(undefined))
      expect([route, status, code]).toEqual([route, 401, 'unauthorized']);
    for (const [route, status, code] of await askEvery(memberCookie))
      expect([route, status, code]).toEqual([route, 403, 'not_operator']);
  });

  it('the role is granted only to a confirmed member, by the operator key alone', async () => {
    const unconfirmed = await cloneMemberKeys(base);
    await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: await registerBody(t.app, unconfirmed),
    });
    expect((await grant(unconfirmed.email)).statusCode).toBe(409);
    expect((await grant('nobody@example.test')).statusCode).toBe(404);
    const withoutKey = await post(
      '/api/operator/operators',
      { email: operator.email, operator: true },
      { cookie: memberCookie },
    );
    expect(withoutKey.statusCode).toBe(401);
    const granted = await grant(operator.email);
    expect(granted.statusCode, granted.body).toBe(200);
    expect(granted.json()).toMatchObject({ email: operator.email, operator: true, changed: true });
    expect((await grant(operator.email)).json()).toMatchObject({ changed: false });
  });

  it('an operator without two-factor sign-in gets 403 two_factor_required everywhere', async () => {
    cookieBeforeTwoFactor = await signedInCookie(t.app, operator);
    for (const [route, status, code] of await askEvery(cookieBeforeTwoFactor))
      expect([route, status, code]).toEqual([route, 403, 'two_factor_required']);
  });

  it('after enrolling, the session that passed the code opens it; a session begun before does not', async () => {
    const cookie = await signedInCookie(t.app, operator);
    const enabled = await post(
      '/auth/two-factor/enable',
      { password: operator.authSecret },
      { cookie },
    );
    expect(enabled.statusCode, enabled.body).toBe(200);
    const secret = new URL(enabled.json().totpURI as string).searchParams.get('secret')!;
    totp = new TOTP({ secret, digits: 6, period: 30 });
    const verified = await post(
      '/auth/two-factor/verify-totp',
      { code: totp.generate() },
      { cookie },
    );
    expect(verified.statusCode, verified.body).toBe(200);
    const renewed = cookieOf(verified.headers['set-cookie']);
    const me = await get('/api/console/me', renewed);
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toMatchObject({ email: operator.email });
    // Signed in on another device before the second factor existed: still a session, not a console.
    expect((await get('/api/account/security', cookieBeforeTwoFactor)).statusCode).toBe(200);
    expect((await get('/api/console/me', cookieBeforeTwoFactor)).json().code).toBe(
      'two_factor_required',
    );
    // A new sign-in: password, then the code; that session opens it.
    const pending = await signIn(t.app, operator.email, operator.authSecret);
    expect(pending.json()).toMatchObject({ twoFactorRedirect: true });
    const passed = await post(
      '/auth/two-factor/verify-totp',
      { code: totp.generate() },
      { cookie: cookieOf(pending.headers['set-cookie']) },
    );
    expect(passed.statusCode, passed.body).toBe(200);
    consoleCookie = cookieOf(passed.headers['set-cookie']);
    expect((await get('/api/console/me', consoleCookie)).statusCode).toBe(200);
  });
});

describe('members', () => {
  it('finds a member by the start of their e-mail, name, wallet or referral code', async () => {
    const code = (
      await sql<{
        c: string;
      }>`SELECT referral_code AS c FROM profiles WHERE id = ${memberId}`.execute(
        t.services.database.db,
      )
    ).rows[0]!.c;
    for (const q of [
      member.email.slice(0, 12),
      member.address.slice(0, 10),
      code.slice(0, 5).toLowerCase(),
    ]) {
      const res = await get(`/api/console/members?q=${encodeURIComponent(q)}`, consoleCookie);
      expect(res.statusCode, res.body).toBe(200);
      expect(
        res.json().members.map((m: { id: string }) => m.id),
        q,
      ).toContain(memberId);
    }
    const none = await get('/api/console/members?q=%25', consoleCookie);
    expect(none.json().members).toEqual([]); // a typed % is a %, not "anything"
  });

  it('pages by cursor, sorted by arrival or by name, each member once', async () => {
    for (let i = 0; i < 3; i++)
      await joinAndConfirm(t.app, t.services.database.db, await cloneMemberKeys(base));
    for (const sort of ['joined', 'name']) {
      const seen: string[] = [];
      let cursor: string | null = '';
      while (cursor !== null) {
        const res = await get(
          `/api/console/members?sort=${sort}${cursor ? `&cursor=${cursor}` : ''}`,
          consoleCookie,
        );
        expect(res.statusCode, res.body).toBe(200);
        const page = res.json() as { members: { id: string }[]; nextCursor: string | null };
        seen.push(...page.members.map((m) => m.id));
        cursor = page.nextCursor;
      }
      const total = (
        await sql<{ n: number }>`SELECT count(*)::int AS n FROM profiles`.execute(
          t.services.database.db,
        )
      ).rows[0]!.n;
      expect(new Set(seen).size).toBe(total);
      expect(seen).toHaveLength(total);
    }
    expect((await get('/api/console/members?sort=balance', consoleCookie)).statusCode).toBe(400);
  });

  it("shows a member's page, credits a care action once per key, and resends nothing to a confirmed member", async () => {
    const page = await get(`/api/console/members/${memberId}`, consoleCookie);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toMatchObject({
      member: { id: memberId, email: member.email, confirmed: true },
      caps: { total: 200 },
    });
    expect((await get('/api/console/members/nobody', consoleCookie)).statusCode).toBe(404);

    const key = randomUUID();
    const credit = (caps: number, k: string | null = key) =>
      post(
        `/api/console/members/${memberId}/care-actions`,
        { caps, description: 'Visited Mrs Jones' },
        {
          cookie: consoleCookie,
          ...(k ? { 'idempotency-key': k } : {}),
        },
      );
    expect((await credit(40)).statusCode).toBe(201);
    expect((await credit(40)).statusCode).toBe(200); // a retry credits nothing more
    expect((await credit(41)).json().code).toBe('idempotency_conflict');
    expect((await credit(40, null)).statusCode).toBe(400);
    expect(
      (await get(`/api/console/members/${memberId}`, consoleCookie)).json().caps.careActions,
    ).toBe(40);
    const resend = await post(
      `/api/console/members/${memberId}/resend-confirmation`,
      {},
      { cookie: consoleCookie },
    );
    expect(resend.json().code).toBe('already_confirmed');
  });
});

describe('distribution rounds', () => {
  it('dry-runs the next round as pages, filtered, then publishes it with its progress as events', async () => {
    const dry = await get('/api/console/rounds/dry-run', consoleCookie);
    expect(dry.statusCode, dry.body).toBe(200);
    const run = dry.json();
    expect(run.index).toBe(1);
    expect(run.changed).toBeGreaterThanOrEqual(2);
    expect(run.newMembers).toBe(run.changed);
    expect(run.rows.map((r: { userId: string }) => r.userId)).toContain(memberId);
    const byWallet = await get(
      `/api/console/rounds/dry-run?q=${member.address.slice(0, 12)}`,
      consoleCookie,
    );
    expect(byWallet.json().rows.map((r: { userId: string }) => r.userId)).toEqual([memberId]);
    expect((await get('/api/console/rounds/dry-run?offset=-1', consoleCookie)).statusCode).toBe(
      400,
    );

    // Two presses at once (a double click, two tabs): one publish starts, the other is refused.
    const presses = await Promise.all([
      post('/api/console/rounds/publish', {}, { cookie: consoleCookie }),
      post('/api/console/rounds/publish', {}, { cookie: consoleCookie }),
    ]);
    expect(presses.map((p) => p.statusCode).sort()).toEqual([202, 409]);
    expect(presses.find((p) => p.statusCode === 409)!.json().code).toBe('conflict');
    // The progress stream: its events end with the round published, then the stream closes.
    const phases = await progressPhases();
    expect(phases.at(-1)).toBe('published');
    const history = (await get('/api/console/rounds', consoleCookie)).json().rounds;
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ index: 1, status: 'published', total: run.total });
    expect(history[0].txHash).toMatch(/^0x[0-9a-f]{64}$/);
    // The audit log names the operator, the round, its total REME and its transaction.
    const entries = (await get('/api/console/audit', consoleCookie)).json().entries as AuditRow[];
    const published = entries.filter((e) => e.action === 'round.publish');
    expect(published).toEqual([
      expect.objectContaining({
        actor: 'console',
        operatorEmail: operator.email,
        target: '1',
        detail: expect.objectContaining({
          index: 1,
          total: run.total,
          txHash: history[0].txHash,
          outcome: 'published',
        }),
      }),
    ]);
    expect(entries.filter((e) => e.action === 'round.publish-start')).toHaveLength(1);
    const page = (await get(`/api/console/members/${memberId}`, consoleCookie)).json();
    expect(page.rounds).toEqual([expect.objectContaining({ round: 1, status: 'published' })]);
    // Nothing changed since: the next dry run has no changes.
    expect((await get('/api/console/rounds/dry-run', consoleCookie)).json()).toMatchObject({
      index: 2,
      changed: 0,
    });
  }, 120_000);
});

describe('a publish another process runs', () => {
  it('refuses the console’s publish while the publish lock is held, and logs the refusal', async () => {
    const lock = t.services.database.leaderLock(LOCK_KEYS.publishRound);
    expect(await lock.tryAcquire()).toBe(true);
    try {
      const started = await post('/api/console/rounds/publish', {}, { cookie: consoleCookie });
      expect(started.statusCode, started.body).toBe(202);
      expect((await progressPhases()).at(-1)).toBe('failed');
    } finally {
      await lock.release();
    }
    const entries = (await get('/api/console/audit', consoleCookie)).json().entries as AuditRow[];
    expect(entries[0]).toMatchObject({
      action: 'round.publish-failed',
      operatorEmail: operator.email,
      detail: { error: 'A distribution round is being published right now.' },
    });
    const history = (await get('/api/console/rounds', consoleCookie)).json().rounds;
    expect(history.map((r: { index: number }) => r.index)).toEqual([1]);
  }, 60_000);
});

describe('the dry run’s Refresh', () => {
  it('works the dry run out again at once, and the pages then serve the new one', async () => {
    const before = (await get('/api/console/rounds/dry-run', consoleCookie)).json().computedAt;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const refreshed = await post(
      '/api/console/rounds/dry-run/refresh',
      {},
      { cookie: consoleCookie },
    );
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const { computedAt } = refreshed.json();
    expect(Date.parse(computedAt)).toBeGreaterThan(Date.parse(before));
    expect((await get('/api/console/rounds/dry-run', consoleCookie)).json().computedAt).toBe(
      computedAt,
    );
  });
});

describe('the audit log', () => {
  it('holds every operator action with who, from where and the idempotency key; rows cannot change', async () => {
    const res = await get('/api/console/audit', consoleCookie);
    expect(res.statusCode, res.body).toBe(200);
    const entries = res.json().entries as Array<{
      action: string;
      actor: string;
      operatorEmail: string | null;
      ip: string;
      idempotencyKey: string | null;
    }>;
    const actions = entries.map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['operator.grant', 'member.view', 'care-action.credit']),
    );
    const credit = entries.find((e) => e.action === 'care-action.credit')!;
    expect(credit).toMatchObject({ actor: 'console', operatorEmail: operator.email });
    expect(credit.ip).toBeTruthy();
    expect(credit.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(entries.find((e) => e.action === 'operator.grant')).toMatchObject({ actor: 'api-key' });
    const db = t.services.database.db;
    await expect(sql`UPDATE operator_audit SET action = 'nothing'`.execute(db)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`DELETE FROM operator_audit`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`TRUNCATE operator_audit`.execute(db)).rejects.toThrow(/append-only/);
  });

  it('exports as CSV, formulas defused', async () => {
    await post(
      `/api/console/members/${memberId}/care-actions`,
      { caps: 1, description: '=HYPERLINK("x")' },
      {
        cookie: consoleCookie,
        'idempotency-key': randomUUID(),
      },
    );
    const csv = await get('/api/console/audit.csv', consoleCookie);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const lines = csv.body.trim().split('\n');
    expect(lines[0]).toBe('id,at,actor,operator,action,target,detail,ip,idempotency_key');
    expect(lines.some((l) => l.includes('care-action.credit'))).toBe(true);
    expect(csv.body).not.toMatch(/(^|,)=HYPERLINK/m);
  });

  it('revoking the role closes the console at the next request and signs the operator out', async () => {
    expect((await grant(operator.email, false)).json()).toMatchObject({
      operator: false,
      changed: true,
    });
    // The session ends with the role (docs/security.md#the-operator-console).
    expect((await get('/api/console/me', consoleCookie)).json().code).toBe('unauthorized');
    expect((await get('/api/me', consoleCookie)).statusCode).toBe(401);
    // Signed in again, through the code: a member's session, not an operator's.
    const pending = await signIn(t.app, operator.email, operator.authSecret);
    const passed = await post(
      '/auth/two-factor/verify-totp',
      { code: totp.generate() },
      { cookie: cookieOf(pending.headers['set-cookie']) },
    );
    expect(passed.statusCode, passed.body).toBe(200);
    const again = cookieOf(passed.headers['set-cookie']);
    expect((await get('/api/console/me', again)).json().code).toBe('not_operator');
    await grant(operator.email);
  });
});
