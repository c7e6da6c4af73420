// Notifications by mail, through SMTP to a real mail server: a credit as it happens, naming the
// friend; the member's choices and the one-click unsubscribe link (RFC 8058) that needs no sign-in
// and refuses a forged, replayed or another member's link; "claim for me" sends the claim of a
// member who left it on and tells them, while a member who turned it off gets the round's mail;
// reminders after 7 and 30 days, once each; the daily digest; and account mails first when the
// notification queue is long.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  cloneMemberKeys,
  makeMemberKeys,
  ORIGIN,
  registerBody,
  type MemberKeys,
  joinNamed,
  type NamedMember,
} from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';
import { freePort, smtpPeer, type SmtpPeer } from './helpers/smtp-peer';
import { header, parse, split } from './helpers/raw-mail';
import { until } from './helpers/until';
import { noticesPass, queueDigests } from '../src/domain/notifications/round-notices';
import { claimForMeSponsor } from '../src/services';

let t: TestApp;
let peer: SmtpPeer;
let base: MemberKeys;

beforeAll(async () => {
  peer = smtpPeer(await freePort());
  await peer.start();
  t = await buildTestApp({
    env: {
      SPONSOR_CLAIMS: 'true',
      RELAYER_BATCH_WAIT_MS: '0',
      SMTP_URL: `smtp://127.0.0.1:${peer.port}`,
    },
    outbox: { pollIntervalMs: 100, retryBaseMs: 100 },
  });
  base = await makeMemberKeys();
  // The tests run the notices' passes themselves, to read what each did.
  await t.services.notices.stop();
  t.services.worker.start();
}, 60_000);
afterAll(async () => {
  await t?.close();
  await peer?.stop();
});

const db = () => t.services.database.db;

const join = (firstName: string, referralCode?: string) =>
  joinNamed(t.app, db(), base, firstName, referralCode);

/** The mails the peer received for `email`, parsed, with their headers. */
function mailsTo(email: string) {
  return peer.received
    .filter((m) => m.to.includes(email))
    .map((m) => {
      const message = split(m.raw);
      const { parts } = parse(m.raw);
      return {
        subject: header(message, 'Subject'),
        listUnsubscribe: header(message, 'List-Unsubscribe'),
        listUnsubscribePost: header(message, 'List-Unsubscribe-Post'),
        text: parts.find((p) => p.type.startsWith('text/plain'))?.body ?? '',
        html: parts.find((p) => p.type.startsWith('text/html'))?.body ?? '',
      };
    });
}

const settings = (m: NamedMember, body?: object) =>
  t.app.inject({
    method: body ? 'PUT' : 'GET',
    url: '/api/notifications/settings',
    headers: { cookie: m.cookie, ...(body ? { origin: ORIGIN } : {}) },
    ...(body ? { payload: body } : {}),
  });

const oneClick = (url: string) =>
  t.app.inject({
    method: 'POST',
    url: url.replace(/^https?:\/\/[^/]+/, ''),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'List-Unsubscribe=One-Click',
  });

const publish = async () => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/operator/distributions',
    headers: { authorization: `Bearer ${t.services.operatorKey}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  await t.services.follower.syncNow();
  return (res.json() as { index: number }).index;
};

const sponsor = () => claimForMeSponsor(t.services.config, t.services.relayer);

describe(`notifications by mail (${testDbKind})`, () => {
  let rosa: NamedMember;
  let maya: NamedMember;

  it('a referrer is mailed "Maya joined through your link (+100 CAPs)", with a one-click unsubscribe and no secret', async () => {
    rosa = await join('Rosa');
    maya = await join('Maya', rosa.code);
    await until(() => mailsTo(rosa.keys.email).some((m) => m.subject.includes('Maya')));
    const mail = mailsTo(rosa.keys.email).find((m) => m.subject.includes('Maya'))!;
    expect(mail.subject).toBe('+100 CAPs: Maya joined through your link');
    expect(mail.text).toContain('Hi Rosa,');
    expect(mail.text).toContain('Maya joined through your link (+100 CAPs).');
    expect(mail.html).toContain('Maya joined through your link');
    expect(mail.listUnsubscribePost).toBe('List-Unsubscribe=One-Click');
    expect(mail.listUnsubscribe).toMatch(
      /^<http:\/\/localhost:\d+\/api\/unsubscribe\?m=.+&t=credits&v=0&s=[\w-]{43}>$/,
    );
    // The only links: the app's page and the unsubscribe page; no session, key or password.
    const links = [...mail.text.matchAll(/https?:\/\/\S+/g)].map((l) => l[0]);
    expect(links).toHaveLength(2);
    expect(links[0]).toMatch(/\/dashboard$/);
    expect(links[1]).toMatch(/\/unsubscribe\?m=[^&]+&t=credits&v=0&s=[\w-]{43}$/);
    for (const secret of [rosa.keys.authSecret, rosa.cookie.split('=')[1]!, t.services.signingKey])
      expect(mail.text + mail.html + mail.listUnsubscribe).not.toContain(secret);
    // Maya's own sign-up bonus is not a notification: she is looking at it.
    expect(mailsTo(maya.keys.email).map((m) => m.subject)).toEqual(['Confirm your e-mail address']);
  });

  it('choices: the member reads and changes their own; a stranger and a bad choice are refused', async () => {
    expect((await settings(rosa)).json()).toEqual({
      credits: 'instant',
      rounds: true,
      claimForMe: false, // CLAIM_FOR_ME_DEFAULT is off in the tests' config
      claimForMeAvailable: true,
    });
    const stranger = await t.app.inject({ method: 'GET', url: '/api/notifications/settings' });
    expect(stranger.statusCode).toBe(401);
    const noOrigin = await t.app.inject({
      method: 'PUT',
      url: '/api/notifications/settings',
      headers: { cookie: rosa.cookie },
      payload: { rounds: false },
    });
    expect(noOrigin.statusCode).toBe(403);
    expect((await settings(rosa, { credits: 'hourly' })).statusCode).toBe(400);
    expect((await settings(rosa, { rounds: true, extra: 'x'.repeat(200_000) })).statusCode).toBe(
      413,
    );
    expect((await settings(rosa, { rounds: 'yes' })).statusCode).toBe(400);
    const changed = await settings(rosa, { credits: 'daily' });
    expect(changed.json()).toMatchObject({ credits: 'daily', rounds: true });
    expect((await settings(rosa, { credits: 'instant' })).json()).toMatchObject({
      credits: 'instant',
    });
    // Maya's choices are untouched by Rosa's.
    expect((await settings(maya)).json()).toMatchObject({ credits: 'instant', rounds: true });
  });

  it('unsubscribe: a link made before the last change, a forged one, or another member’s id are refused; the link of the latest mail works once, and the next mail of the topic is not sent', async () => {
    // Rosa changed her credits choice twice: the first mail's link (version 0) is out of date.
    const first = mailsTo(rosa.keys.email).find((m) => m.subject.includes('Maya'))!;
    const oldLink = first.listUnsubscribe.slice(1, -1);
    expect((await oneClick(oldLink)).statusCode).toBe(410);

    const kai = await join('Kai', rosa.code);
    await until(() => mailsTo(rosa.keys.email).some((m) => m.subject.includes('Kai')));
    const link = mailsTo(rosa.keys.email)
      .find((m) => m.subject.includes('Kai'))!
      .listUnsubscribe.slice(1, -1);
    const url = new URL(link);
    const forged = new URL(link);
    forged.searchParams.set('s', `${url.searchParams.get('s')!.slice(0, -2)}AA`);
    expect((await oneClick(forged.href)).json()).toMatchObject({
      code: 'invalid_unsubscribe_link',
    });
    const otherMember = new URL(link);
    otherMember.searchParams.set('m', maya.id);
    expect((await oneClick(otherMember.href)).statusCode).toBe(400);
    const otherTopic = new URL(link);
    otherTopic.searchParams.set('t', 'rounds');
    expect((await oneClick(otherTopic.href)).statusCode).toBe(400);
    const oversized = await t.app.inject({
      method: 'POST',
      url: url.pathname + url.search,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `List-Unsubscribe=One-Click&${'x'.repeat(4096)}`,
    });
    expect(oversized.statusCode).toBe(413);
    const malformed = new URL(link);
    malformed.searchParams.set('v', 'x');
    expect((await oneClick(malformed.href)).statusCode).toBe(400);
    expect((await settings(rosa)).json()).toMatchObject({ credits: 'instant' });

    // A mail client opening the link is sent to the page that asks first; nothing changes.
    const opened = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe(`/unsubscribe${url.search}`);
    expect((await settings(rosa)).json()).toMatchObject({ credits: 'instant' });

    const done = await oneClick(link);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ topic: 'credits' });
    expect((await settings(rosa)).json()).toMatchObject({ credits: 'off', rounds: true });
    // Replayed: refused, and it changes nothing.
    expect((await oneClick(link)).json()).toMatchObject({ code: 'unsubscribe_link_used' });

    const before = mailsTo(rosa.keys.email).length;
    await join('Lio', kai.code); // a level-2 credit for Rosa, a level-1 one for Kai
    await until(() => mailsTo(kai.keys.email).some((m) => m.subject.includes('Lio')));
    const queued = await db()
      .selectFrom('notification_mails')
      .select('id')
      .where('user_id', '=', rosa.id)
      .where('status', '=', 'pending')
      .execute();
    expect(queued).toEqual([]);
    expect(mailsTo(rosa.keys.email)).toHaveLength(before);
    expect(mailsTo(kai.keys.email).find((m) => m.subject.includes('Lio'))!.subject).toBe(
      '+100 CAPs: Lio joined through your link',
    );
  });

  it('a round: the claim of a member with "claim for me" on is sent for them and they are told; a member with it off gets the round’s mail, once', async () => {
    expect((await settings(maya, { claimForMe: true })).json()).toMatchObject({ claimForMe: true });
    const round = await publish();
    const pass = await noticesPass(db(), sponsor());
    expect(pass.round).toBe(round);
    expect(pass.claimsForMe).toBeGreaterThanOrEqual(1);
    const mayaClaim = await db()
      .selectFrom('sponsored_claims')
      .select(['status', 'for_me', 'signature'])
      .where('user_id', '=', maya.id)
      .executeTakeFirstOrThrow();
    expect(mayaClaim).toEqual({ status: 'queued', for_me: true, signature: null });
    // Not twice: the next pass skips the claim on its way, and the round's mails went once.
    const again = await noticesPass(db(), sponsor());
    expect(again).toMatchObject({ claimsForMe: 0, roundMails: 0 });

    await t.services.relayer!.passNow();
    await until(async () => {
      const c = await db()
        .selectFrom('sponsored_claims')
        .select('status')
        .where('user_id', '=', maya.id)
        .executeTakeFirstOrThrow();
      return c.status === 'confirmed';
    });
    expect(
      await t.services.chain.token.getFunction('balanceOf')(maya.keys.address),
    ).toBeGreaterThan(0n);
    await t.services.follower.syncNow();
    await until(() =>
      mailsTo(maya.keys.email).some((m) => m.subject.startsWith('Claimed for you')),
    );
    const claimed = mailsTo(maya.keys.email).find((m) => m.subject.startsWith('Claimed for you'))!;
    expect(claimed.text).toMatch(/Claimed for you: [\d,]+\.\d\d REME are in your wallet/);
    expect(claimed.listUnsubscribe).toContain('t=rounds');
    // Maya was claimed for: no "to claim" mail. Rosa (off) is told what to claim, once.
    expect(mailsTo(maya.keys.email).some((m) => m.subject.includes('to claim'))).toBe(false);
    await until(() => mailsTo(rosa.keys.email).some((m) => m.subject.startsWith(`Round ${round}`)));
    const roundMail = mailsTo(rosa.keys.email).filter((m) =>
      m.subject.startsWith(`Round ${round}`),
    );
    expect(roundMail).toHaveLength(1);
    expect(roundMail[0]!.text).toMatch(/\/claim$/m);
  });

  it('reminders after 7 and 30 days, once each, only to members who have not claimed', async () => {
    const round = (await noticesPass(db(), sponsor())).round!;
    const ago = (days: number) =>
      sql`UPDATE distribution_rounds SET published_at = now() - make_interval(days => ${days})
           WHERE round_index = ${round}`.execute(db());
    await ago(8);
    const first = await noticesPass(db(), sponsor());
    expect(first.reminders).toBeGreaterThanOrEqual(1);
    expect((await noticesPass(db(), sponsor())).reminders).toBe(0);
    const reminded = await db()
      .selectFrom('claim_reminders')
      .select(['user_id', 'after_days'])
      .where('round_index', '=', round)
      .execute();
    expect(reminded).toContainEqual({ user_id: rosa.id, after_days: 7 });
    expect(reminded.map((r) => r.user_id)).not.toContain(maya.id); // claimed for her
    await until(() => mailsTo(rosa.keys.email).some((m) => m.subject.includes('still waiting')));
    await ago(31);
    await noticesPass(db(), sponsor());
    expect((await noticesPass(db(), sponsor())).reminders).toBe(0);
    const after30 = await db()
      .selectFrom('claim_reminders')
      .select('after_days')
      .where('user_id', '=', rosa.id)
      .where('round_index', '=', round)
      .execute();
    expect(after30.map((r) => r.after_days).sort()).toEqual([30, 7]);
  });

  it('a daily digest of the credits of the period, once, to members who chose it', async () => {
    const kim = await join('Kim');
    expect((await settings(kim, { credits: 'daily' })).statusCode).toBe(200);
    await join('Noa', kim.code);
    const now = new Date(Date.now() + 60_000);
    expect(await queueDigests(db(), now)).toBeGreaterThanOrEqual(1);
    expect(await queueDigests(db(), now)).toBe(0);
    await until(() => mailsTo(kim.keys.email).some((m) => m.subject.startsWith('Your daily')));
    const digest = mailsTo(kim.keys.email).find((m) => m.subject.startsWith('Your daily'))!;
    expect(digest.subject).toBe('Your daily digest: +100 CAPs');
    expect(digest.text).toContain('Noa joined through your link (+100 CAPs).');
    // No instant mail for Noa's credit: Kim chose the digest.
    expect(mailsTo(kim.keys.email).filter((m) => m.subject.includes('Noa'))).toHaveLength(0);
  });

  it('the notification centre pages back through older lines, lists a claim that failed, and refuses a stranger or a bad cursor', async () => {
    await sql`
      INSERT INTO sponsored_claims
        (user_id, account, round_index, cumulative_amount, amount, status, reason, reserved_wei, for_me)
      SELECT ${rosa.id}, wallet_address, 1, 999, 999, 'failed', 'The network refused it.', 0, true
        FROM user_wallets WHERE user_id = ${rosa.id}`.execute(db());
    const first = await t.app.inject({
      method: 'GET',
      url: '/api/activity',
      headers: { cookie: rosa.cookie },
    });
    const items = first.json().items as Array<{ id: string; at: string; kind: string }>;
    expect(items[0]).toMatchObject({
      kind: 'claim_failed',
      description: 'The network refused it.',
    });
    expect(items.length).toBeGreaterThanOrEqual(5);
    const older = (at: string, id: string, cookie = rosa.cookie) =>
      t.app.inject({
        method: 'GET',
        url: `/api/activity/older?${new URLSearchParams({ beforeAt: at, beforeId: id })}`,
        headers: cookie ? { cookie } : {},
      });
    const page = await older(items[2]!.at, items[2]!.id);
    expect(page.statusCode).toBe(200);
    expect(page.json()).toEqual({ items: items.slice(3), more: false });
    expect((await older(items.at(-1)!.at, items.at(-1)!.id)).json()).toEqual({
      items: [],
      more: false,
    });
    // Another member's cursor reads only their own lines; a stranger and bad cursors are refused.
    const mayas = (await older(items[0]!.at, items[0]!.id, maya.cookie)).json().items as Array<{
      id: string;
    }>;
    expect(mayas.some((i) => items.some((r) => r.id === i.id && r.id.startsWith('claim-')))).toBe(
      false,
    );
    expect((await older(items[0]!.at, items[0]!.id, '')).statusCode).toBe(401);
    expect((await older('yesterday', 'x')).statusCode).toBe(400);
    expect((await older(items[0]!.at, 'x'.repeat(65))).statusCode).toBe(400);
  });

  it('the bell of a member with no lines yet: nothing unread, the moment they looked kept, no one else’s lines', async () => {
    const nia = await join('Nia');
    // Nia's own lines gone (her sign-up credit voided, her security events removed); other
    // members' lines stay in the tables.
    await sql`UPDATE reward_ledger SET status = 'void' WHERE user_id = ${nia.id}`.execute(db());
    await sql`DELETE FROM security_events WHERE user_id = ${nia.id}`.execute(db());
    const bell = () =>
      t.app.inject({ method: 'GET', url: '/api/activity', headers: { cookie: nia.cookie } });
    expect((await bell()).json()).toEqual({ items: [], unread: 0, seenAt: null });
    const upTo = new Date(Date.now() - 1_000).toISOString();
    const seen = await t.app.inject({
      method: 'POST',
      url: '/api/activity/seen',
      headers: { cookie: nia.cookie, origin: ORIGIN },
      payload: { upTo },
    });
    expect(seen.statusCode, seen.body).toBe(200);
    expect((await bell()).json()).toEqual({ items: [], unread: 0, seenAt: upTo });
  });

  it('a script changing choices in a loop is stopped', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++)
      statuses.push((await settings(maya, { rounds: i % 2 === 0 })).statusCode);
    // 30 changes a minute (Maya made one already in this minute).
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(28);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(30);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
  });

  it('account mails go first: a confirmation asked for behind 300 queued notification mails leaves before them', async () => {
    await t.services.worker.stop();
    await sql`
      INSERT INTO notification_mails (user_id, to_address, topic, template, params)
      SELECT ${rosa.id}, 'queue-' || g || '@example.com', 'rounds', 'round',
             jsonb_build_object('round', 1, 'amount', '1')
        FROM generate_series(1, 300) g`.execute(db());
    const late = await cloneMemberKeys(base);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: await registerBody(t.app, late),
    });
    expect(res.statusCode).toBe(201);
    // One batch: the confirmation leaves in it although 300 notification mails were queued first.
    await t.services.worker.deliverDue();
    const confirmation = await db()
      .selectFrom('mail_outbox')
      .select('status')
      .where('to_address', '=', late.email.toLowerCase())
      .executeTakeFirstOrThrow();
    expect(confirmation.status).toBe('sent');
    expect(peer.received.some((m) => m.to.includes(late.email.toLowerCase()))).toBe(true);
    const waiting = await db()
      .selectFrom('notification_mails')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    expect(Number(waiting.n)).toBeGreaterThanOrEqual(290);
  });
});
