// A farm against the real app (in process, its own database, the configured limits, gate and
// holds), and honest members beside it (docs/operations.md#reward-integrity). The attacker
// registers as fast as it can, solving every gate challenge with ALTCHA's solver, confirming from
// the dev mailbox and chaining each account through the previous one's referral link: first from
// one IPv4 address, then rotating through 50 addresses of one IPv6 /48. One hour is simulated:
// when the attempt limit refuses, its 10-minute window is let pass (the limit's rows deleted)
// until six windows have passed. Then the hold's 72 hours pass (release times moved back) and the
// release pass runs. Printed: accounts made, CPU seconds the attacker spent per account (solving),
// CAPs credited, held, released, and in the next round's tree, and the share of the farm flagged;
// for the honest members (20 from 20 networks, 10 from one care-home network) the share released
// without an operator, and after one "release all from this network".
// --smoke: 7 accounts per farm at a lowered raised difficulty, to prove the path, not the cost.
import { cpus } from 'node:os';
import { sql } from 'kysely';
import { entitlements, latestPublishedRound } from '@crw/server/domain/distribution/entitlements';
import { decideHeldRewards, releaseDueCredits } from '@crw/server/domain/rewards/holds';
import { buildTestApp, type TestApp } from '@crw/server/testing/app';
import type { WalletChallenge } from '@crw/core';
import {
  cloneMemberKeys,
  makeMemberKeys,
  openConfirmationLink,
  ORIGIN,
  signChallenge,
  type MemberKeys,
} from '@crw/server/testing/members';
import { gateChallengeFor, solveGate } from '@crw/server/testing/signup-gate';
import { median, sized, smoke } from './lib/harness';

const ACCOUNTS_PER_FARM = sized(Number(process.env.FARM_ACCOUNTS ?? 40), 7);
const WINDOWS_PER_HOUR = 6;
const ATTEMPTS_PER_WINDOW = 30;

const app: TestApp = await buildTestApp({
  chain: false,
  env: {
    PUBLIC_URL: ORIGIN,
    REWARD_HOLD_HOURS: '72',
    SPONSOR_CLAIMS: 'false',
    // The default, which the in-process test app otherwise lifts (its clients share 127.0.0.1).
    SIGNUP_GATE_NETWORK_HOURLY_SIGNUPS: '5',
    AUTH_RATE_LIMIT_PER_IP: String(ATTEMPTS_PER_WINDOW),
    ...(smoke ? { SIGNUP_GATE_RAISED_MAX_NUMBER: '400' } : {}),
  },
});
const db = app.services.database.db;
const base = await makeMemberKeys();

interface Joined {
  userId: string;
  code: string;
}

/** The wallet proof the browser's worker signs, its challenge asked from `ip` as the browser would. */
async function walletProofFrom(ip: string, keys: MemberKeys) {
  const res = await app.app.inject({
    method: 'POST',
    url: '/api/wallet/challenge',
    remoteAddress: ip,
    headers: { origin: ORIGIN },
    payload: { purpose: 'register' },
  });
  if (res.statusCode === 429) return null;
  if (res.statusCode !== 200) throw new Error(`wallet challenge: ${res.statusCode} ${res.body}`);
  return signChallenge(res.json<WalletChallenge>(), keys.privateKey);
}

/** One registration as the browser makes it from `ip`, with the gate solved here; the CPU time
 * the solve took is added to `cpu`. Returns null when a limit refuses it (429). */
async function register(
  ip: string,
  keys: MemberKeys,
  device: { screen: string; timeZone: string },
  referralCode: string | undefined,
  cpu: { seconds: number },
  opensApp = false,
): Promise<string | null> {
  const proof = await walletProofFrom(ip, keys);
  if (!proof) return null;
  const challenge = await gateChallengeFor(app.app, 'register', ip);
  const before = process.cpuUsage();
  const gate = await solveGate(challenge);
  const used = process.cpuUsage(before);
  cpu.seconds += (used.user + used.system) / 1e6;
  const res = await app.app.inject({
    method: 'POST',
    url: '/api/register',
    remoteAddress: ip,
    headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36' },
    payload: {
      email: keys.email,
      authSecret: keys.authSecret,
      firstName: 'Farm',
      lastName: 'Hand',
      wallet: {
        address: keys.address,
        keystore: keys.keystore,
        proof,
      },
      gate,
      device,
      ...(referralCode ? { referralCode } : {}),
    },
  });
  if (res.statusCode === 429) return null;
  if (res.statusCode !== 201) throw new Error(`register: ${res.statusCode} ${res.body}`);
  const cookie = await openConfirmationLink(app.app, db, keys.email, ip);
  // A person lands on the dashboard the link signs them in to; the farm's script does not look.
  if (opensApp) await app.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
  return res.json().userId as string;
}

async function codeOf(userId: string): Promise<string> {
  const row = await db
    .selectFrom('profiles')
    .select('referral_code')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.referral_code!;
}

async function join(
  ip: string,
  referrer: string | undefined,
  device = { screen: '1920x1080', timeZone: 'UTC' },
  cpu = { seconds: 0 },
): Promise<Joined> {
  const userId = await register(ip, await cloneMemberKeys(base), device, referrer, cpu, true);
  if (!userId) throw new Error(`an honest sign-up from ${ip} was refused by a limit`);
  return { userId, code: await codeOf(userId) };
}

/** The attempt limits' windows pass (their counters are deleted), as 10 minutes would. */
const windowPasses = () => sql`DELETE FROM attempt_limits`.execute(db);

interface FarmResult {
  name: string;
  accounts: string[];
  windows: number;
  /** Accounts made in the first limit window, when the limit ended it (null: the farm ended first). */
  firstWindow: number | null;
  seconds: number;
  /** CPU seconds each account's gate took, in order. */
  cpu: number[];
}

async function farm(name: string, ipOf: (i: number) => string, root: Joined): Promise<FarmResult> {
  const accounts: string[] = [];
  const spent: number[] = [];
  let code = root.code;
  let windows = 1;
  let firstWindow: number | null = null;
  const started = performance.now();
  while (accounts.length < ACCOUNTS_PER_FARM && windows <= WINDOWS_PER_HOUR) {
    const cpu = { seconds: 0 };
    const userId = await register(
      ipOf(accounts.length),
      await cloneMemberKeys(base),
      { screen: '1920x1080', timeZone: 'UTC' },
      code,
      cpu,
    );
    if (userId === null) {
      firstWindow ??= accounts.length;
      windows += 1;
      await windowPasses();
      continue;
    }
    spent.push(cpu.seconds);
    accounts.push(userId);
    code = await codeOf(userId);
  }
  const seconds = (performance.now() - started) / 1000;
  return { name, accounts, windows, firstWindow, seconds, cpu: spent };
}

async function capsOf(kind: 'held' | 'released' | 'void', users: string[]): Promise<number> {
  if (users.length === 0) return 0;
  const row = await sql<{ caps: string | null }>`
    SELECT sum(caps)::text AS caps FROM reward_ledger
     WHERE status = ${kind} AND (subject_id = ANY(${users}) OR user_id = ANY(${users}))`.execute(
    db,
  );
  return Number(row.rows[0]?.caps ?? 0);
}

async function flaggedShare(users: string[]): Promise<number> {
  const row = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM unnest(${users}::text[]) u(id) WHERE flagged_subject(u.id)`.execute(
    db,
  );
  return Number(row.rows[0]?.n ?? 0) / users.length;
}

/** The hold's 72 hours pass for everything held, and the release pass runs. */
async function holdPasses(): Promise<void> {
  await sql`UPDATE reward_ledger SET release_at = now() - interval '1 second' WHERE status = 'held'`.execute(
    db,
  );
  await releaseDueCredits(db);
}

async function inNextTree(users: string[]): Promise<bigint> {
  const wanted = new Set(users);
  const rows = await entitlements(db, await latestPublishedRound(db));
  return rows.filter((r) => wanted.has(r.userId)).reduce((sum, r) => sum + r.amount, 0n);
}

// The attacker's own first account, from elsewhere, that every farm hangs from.
const root = await join('192.0.2.77', undefined);
const farms = [
  await farm('one IPv4 address', () => '203.0.113.7', root),
  await farm(
    '50 addresses of one IPv6 /48',
    (i) => `2001:db8:42:${(i % 50).toString(16)}::1`,
    root,
  ),
];

// Honest members: 5 who invite, 20 friends from 20 networks on their own devices, and a care
// home's 10 on one network.
const seeds: Joined[] = [];
for (let i = 0; i < 5; i++)
  seeds.push(
    await join(`198.18.${i}.10`, undefined, {
      screen: `${360 + i}x800`,
      timeZone: 'Europe/London',
    }),
  );
const friends: string[] = [];
for (let i = 0; i < 20; i++)
  friends.push(
    (
      await join(`198.19.${i}.20`, seeds[i % 5]!.code, {
        screen: `${390 + i}x844`,
        timeZone: i % 2 ? 'Europe/Paris' : 'Europe/London',
      })
    ).userId,
  );
const home: string[] = [];
for (let i = 0; i < 10; i++)
  home.push(
    (
      await join(`100.64.9.${10 + i}`, undefined, {
        screen: `${1280 + i}x800`,
        timeZone: 'Europe/London',
      })
    ).userId,
  );

const farmAccounts = farms.flatMap((f) => f.accounts);
const creditedBefore =
  (await capsOf('held', farmAccounts)) + (await capsOf('released', farmAccounts));
const treeBefore = await inNextTree(farmAccounts);
await holdPasses();
const honest = [...seeds.map((s) => s.userId), ...friends];
const honestHeldAfterHold = (await capsOf('held', honest)) > 0;
const homeHeldAfterHold = await capsOf('held', home);
const careHome = await decideHeldRewards(
  app.services.database,
  { network: '100.64.9.0/24' },
  { outcome: 'release', note: 'the care home' },
);
const homeHeldAfterRelease = await capsOf('held', home);

console.log(`\nfarm benchmark (${smoke ? 'smoke' : 'full'}; ${cpus().length} cores; holds 72 h)`);
const baseSignups = app.services.config.SIGNUP_GATE_NETWORK_HOURLY_SIGNUPS;
for (const f of farms) {
  const flagged = await flaggedShare(f.accounts);
  const released = await capsOf('released', f.accounts);
  const held = await capsOf('held', f.accounts);
  const atBase = f.cpu.slice(0, baseSignups);
  const raised = f.cpu.slice(baseSignups);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const perHourByCpu = raised.length > 0 ? (3600 / mean(raised)) * cpus().length : null;
  const perHourByLimit = f.firstWindow === null ? null : f.firstWindow * WINDOWS_PER_HOUR;
  console.log(
    `\n${f.name}: ${f.accounts.length} accounts in ${f.windows} limit window(s) of the hour, ${f.seconds.toFixed(1)} s`,
  );
  console.log(
    `  attacker CPU per account (gate solving): ${median(atBase).toFixed(2)} s median at the base difficulty (first ${atBase.length}), ${raised.length > 0 ? `${median(raised).toFixed(2)} s median, ${mean(raised).toFixed(2)} s mean at the raised one (${raised.length})` : 'none at the raised one'}`,
  );
  console.log(
    `  accounts per hour: the limit allows ${perHourByLimit ?? `more than ${f.accounts.length}`}; the raised gate, on ${cpus().length} cores, ${perHourByCpu === null ? 'n/a' : Math.floor(perHourByCpu)}`,
  );
  console.log(`  farm flagged: ${(flagged * 100).toFixed(0)} %`);
  console.log(`  after the hold: CAPs released ${released}, still held for review ${held}`);
}
console.log(`\nfarm CAPs credited (all held at first): ${creditedBefore}`);
console.log(`farm REME in the next round's tree before the hold passed: ${treeBefore}`);
console.log(
  `farm REME in the next round's tree after it (unflagged accounts released by time): ${await inNextTree(farmAccounts)}`,
);
console.log(
  `honest, 20 networks: ${honestHeldAfterHold ? 'some still held' : '100 % released'} with no operator action`,
);
console.log(
  `care home, one network: ${homeHeldAfterHold} CAPs held after the hold; one "release all from this network" released ${careHome.credits} credits, ${homeHeldAfterRelease} CAPs left held`,
);
await app.close();
