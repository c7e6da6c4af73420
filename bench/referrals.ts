// Referrals at community scale on PostgreSQL: seed a random referral forest (a few early members
// become large hubs), then time the dashboard's read path — network stats and credit history, as
// the API runs them — for members with small, median and the largest networks, and the crediting
// throughput of confirmations. SIZES (default 10000,1000000); BENCH_DATABASE_URL (default local).
// --smoke: 1,000 members, 5 timed reads each, 50 confirmations.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '@crw/server/infra/db/database';
import { setUpSchema } from '@crw/server/setup-schema';
import { percentile, sized, smokeNeedsPostgres } from './lib/harness';

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
await smokeNeedsPostgres(adminUrl);
const sizes = sized((process.env.SIZES ?? '10000,1000000').split(',').map(Number), [1_000]);
const iterations = sized(Number(process.env.ITERATIONS ?? 200), 5);
const newMembers = sized(Number(process.env.CREDIT_MEMBERS ?? 2000), 50);

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function seed(pool: pg.Pool, n: number): Promise<void> {
  const steps: Array<[string, string]> = [
    [
      'auth users',
      `INSERT INTO "user" (id, name, email, "emailVerified", "createdAt", "updatedAt")
       SELECT 'm' || i, 'Member ' || i, 'm' || i || '@bench.test', true, now(), now() FROM generate_series(1, ${n}) i`,
    ],
    // Parent drawn as 1 + (i-1)·u³: early members attract most friends (hubs), like real communities.
    [
      'profiles',
      `INSERT INTO profiles (id, username, full_name, referral_code, email, referred_by, created_at)
       SELECT 'm' || i, 'm' || i, 'Member ' || i, 'C' || upper(to_hex(i)), 'm' || i || '@bench.test',
              CASE WHEN i > 1 AND random() < 0.85 THEN 'm' || (1 + floor((i - 1) * power(random(), 3)))::bigint END,
              now() - (${n} - i) * interval '1 second'
         FROM generate_series(1, ${n}) i`,
    ],
    ['distributions', `INSERT INTO user_token_distributions (user_id) SELECT id FROM profiles`],
    [
      'referrals',
      `INSERT INTO referrals (referrer_id, referred_id, referral_code, level, created_at)
       SELECT p1.referred_by, p.id, 'SEED', 1, p.created_at FROM profiles p JOIN profiles p1 ON p1.id = p.id WHERE p.referred_by IS NOT NULL
       UNION ALL
       SELECT p2.referred_by, p.id, 'SEED', 2, p.created_at FROM profiles p JOIN profiles p2 ON p2.id = p.referred_by WHERE p2.referred_by IS NOT NULL
       UNION ALL
       SELECT p3.referred_by, p.id, 'SEED', 3, p.created_at FROM profiles p JOIN profiles p2 ON p2.id = p.referred_by JOIN profiles p3 ON p3.id = p2.referred_by WHERE p3.referred_by IS NOT NULL`,
    ],
    [
      'signup ledger',
      `INSERT INTO reward_ledger (user_id, source_key, kind, caps, reme, description, created_at)
       SELECT id, 'signup:' || id, 'signup', 200, 200 * 1000000000000000000::numeric, 'Registration bonus', created_at FROM profiles`,
    ],
    [
      'referral ledger',
      `INSERT INTO reward_ledger (user_id, source_key, kind, caps, reme, level, from_user_id, description, created_at)
       SELECT referrer_id, 'referral:' || referred_id || ':' || level, 'referral', (ARRAY[100, 50, 25])[level],
              (ARRAY[100, 50, 25])[level] * 1000000000000000000::numeric, level, referred_id, 'Level ' || level || ' referral', created_at FROM referrals`,
    ],
    [
      'balances',
      `UPDATE user_token_distributions d
        SET signup_caps = 200, signup_tokens = 200 * 1000000000000000000::numeric,
            rrp_balance = coalesce(x.caps, 0), earned_referral_tokens = coalesce(x.reme, 0)
       FROM profiles p LEFT JOIN (SELECT user_id, sum(caps) AS caps, sum(reme) AS reme FROM reward_ledger WHERE kind = 'referral' GROUP BY user_id) x ON x.user_id = p.id
      WHERE d.user_id = p.id`,
    ],
    [
      'network counts',
      `UPDATE profiles p SET network_level1 = c.l1, network_level2 = c.l2, network_level3 = c.l3
       FROM (SELECT referrer_id, count(*) FILTER (WHERE level = 1) AS l1, count(*) FILTER (WHERE level = 2) AS l2, count(*) FILTER (WHERE level = 3) AS l3
               FROM referrals GROUP BY referrer_id) c WHERE p.id = c.referrer_id`,
    ],
    ['analyze', 'ANALYZE'],
  ];
  for (const [name, statement] of steps) {
    const ms = await timed(() => pool.query(statement));
    console.log(`  seed ${name.padEnd(16)} ${(ms / 1000).toFixed(1)} s`);
  }
}

/** The API's network-stats path: the SQL function, then whoever brought each listed member in. */
async function networkStats(pool: pg.Pool, userId: string): Promise<void> {
  const { rows } = await pool.query<{ r: { data: { hierarchy: Array<{ referred_id: string }> } } }>(
    'SELECT get_referral_hierarchy_with_counts($1) AS r',
    [userId],
  );
  const ids = rows[0]!.r.data.hierarchy.map((h) => h.referred_id);
  if (ids.length)
    await pool.query('SELECT id, referred_by FROM profiles WHERE id = ANY($1)', [ids]);
}

async function creditHistory(pool: pg.Pool, userId: string): Promise<void> {
  await pool.query('SELECT * FROM get_referral_credit_history($1) LIMIT 500', [userId]);
}

async function readPath(pool: pg.Pool) {
  const pick = async (sql: string) =>
    (await pool.query<{ id: string; size: string }>(sql)).rows[0]!;
  const members = {
    small: await pick(
      `SELECT id, network_level1 + network_level2 + network_level3 AS size FROM profiles WHERE network_level1 = 1 AND network_level2 = 0 LIMIT 1`,
    ),
    median:
      await pick(`SELECT id, size FROM (SELECT id, network_level1 + network_level2 + network_level3 AS size FROM profiles WHERE network_level1 > 0) s
                        ORDER BY size OFFSET (SELECT count(*) / 2 FROM profiles WHERE network_level1 > 0) LIMIT 1`),
    largest: await pick(
      `SELECT id, network_level1 + network_level2 + network_level3 AS size FROM profiles ORDER BY size DESC LIMIT 1`,
    ),
  };
  const figures: Record<string, string> = {};
  for (const [label, member] of Object.entries(members)) {
    for (const [what, fn] of [
      ['network stats', networkStats],
      ['credit history', creditHistory],
    ] as const) {
      for (let i = 0; i < 10; i++) await fn(pool, member.id); // warm the cache
      const times: number[] = [];
      for (let i = 0; i < iterations; i++) times.push(await timed(() => fn(pool, member.id)));
      times.sort((a, b) => a - b);
      figures[`${label} (${member.size}) ${what}`] =
        `p50 ${percentile(times, 50).toFixed(2)} ms  p99 ${percentile(times, 99).toFixed(2)} ms`;
    }
  }
  return figures;
}

async function creditingThroughput(pool: pg.Pool, n: number): Promise<string> {
  const base = n + 1;
  await pool.query(`INSERT INTO "user" (id, name, email, "emailVerified", "createdAt", "updatedAt")
    SELECT 'x' || i, 'New ' || i, 'x' || i || '@bench.test', false, now(), now() FROM generate_series(${base}, ${base + newMembers - 1}) i`);
  await pool.query(`INSERT INTO profiles (id, username, full_name, referral_code, email, referred_by, referred_with_code)
    SELECT 'x' || g.i, 'x' || g.i, 'New ' || g.i, 'X' || upper(to_hex(g.i)), 'x' || g.i || '@bench.test', r.id, r.referral_code
      FROM (SELECT i, 'm' || (1 + floor(${n - 1} * random()))::bigint AS parent FROM generate_series(${base}, ${base + newMembers - 1}) i) g
      JOIN profiles r ON r.id = g.parent`);
  await pool.query(
    `INSERT INTO user_token_distributions (user_id) SELECT id FROM profiles WHERE id LIKE 'x%'`,
  );
  const ids = (
    await pool.query<{ id: string }>(`SELECT id FROM profiles WHERE id LIKE 'x%'`)
  ).rows.map((r) => r.id);
  const before = Number(
    (await pool.query<{ n: string }>('SELECT count(*) AS n FROM reward_ledger')).rows[0]!.n,
  );
  let next = 0;
  const ms = await timed(() =>
    Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < ids.length)
          await pool.query('SELECT credit_confirmed_member($1)', [ids[next++]]);
      }),
    ),
  );
  const credits =
    Number(
      (await pool.query<{ n: string }>('SELECT count(*) AS n FROM reward_ledger')).rows[0]!.n,
    ) - before;
  return `${ids.length} confirmations (${credits} ledger credits) in ${(ms / 1000).toFixed(1)} s: ${((ids.length / ms) * 1000).toFixed(0)} confirmations/s, ${((credits / ms) * 1000).toFixed(0)} credits/s (8 connections)`;
}

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
const results: Array<[number, Record<string, string>, string, number]> = [];
try {
  for (const n of sizes) {
    const name = `crw_bench_${n}_${randomBytes(3).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    try {
      const database = await openDatabase({ kind: 'postgres', url: url.toString() });
      await setUpSchema(database);
      await database.close();
      const pool = new pg.Pool({ connectionString: url.toString(), max: 8 });
      pool.on('error', () => undefined); // idle clients dropped with the database at the end
      console.log(`\n${n.toLocaleString('en')} members:`);
      const seedMs = await timed(() => seed(pool, n));
      const figures = await readPath(pool);
      for (const [k, v] of Object.entries(figures)) console.log(`  ${k.padEnd(40)} ${v}`);
      const throughput = await creditingThroughput(pool, n);
      console.log(`  crediting: ${throughput}`);
      results.push([n, figures, throughput, seedMs]);
      await pool.end();
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
  }
} finally {
  await admin.end();
}
console.log('\nsummary');
for (const [n, figures, throughput, seedMs] of results) {
  console.log(`${n.toLocaleString('en')} members — seeded in ${(seedMs / 1000).toFixed(1)} s`);
  for (const [k, v] of Object.entries(figures)) console.log(`  ${k.padEnd(40)} ${v}`);
  console.log(`  crediting: ${throughput}`);
}
