// How often hand-off codes may be redeemed. The sister app redeems for every member of the site from
// its one server, so it is counted by its client secret (a generous rate) and each code gets a few
// tries; a caller without the secret is counted per address (docs/security.md#limits-proxies-files-logs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinAndConfirm, makeMemberKeys, signedInCookie, type MemberKeys } from './helpers/members';
import { buildTestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

const SISTER_APP = '198.51.100.20';
const STRANGER = '203.0.113.66';

let member: MemberKeys;
beforeAll(async () => {
  member = await makeMemberKeys();
}, 60_000);

async function site(env: Record<string, string> = {}) {
  const t = await buildTestApp({ chain: false, env });
  await joinAndConfirm(t.app, t.services.database.db, member);
  const cookie = await signedInCookie(t.app, member);
  const newCode = async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/handoff',
      headers: { cookie, origin: t.services.config.publicUrl },
    });
    expect(res.statusCode, res.body).toBe(200);
    return new URL((res.json() as { url: string }).url).searchParams.get('authtoken')!;
  };
  const redeem = (
    code: string,
    secret: string = t.services.communityAppSecret,
    remoteAddress = SISTER_APP,
  ) =>
    t.app.inject({
      method: 'POST',
      url: '/api/handoff/redeem',
      remoteAddress,
      headers: { authorization: `Bearer ${secret}` },
      payload: { code },
    });
  return { t, newCode, redeem };
}

describe(`hand-off redemption limits (${testDbKind})`, () => {
  let s: Awaited<ReturnType<typeof site>>;
  beforeAll(async () => {
    s = await site();
  }, 60_000);
  afterAll(() => s?.t.close());

  it('redeems more codes from the sister app’s one address than the per-address limit allows', async () => {
    const perIp = s.t.services.config.AUTH_RATE_LIMIT_PER_IP;
    for (let i = 0; i < perIp + 5; i++) {
      const res = await s.redeem(await s.newCode());
      expect(res.statusCode, `redemption ${i + 1}: ${res.body}`).toBe(200);
    }
  });

  it('gives one code a few tries, then 429, while other codes still redeem', async () => {
    const guessed = 'A'.repeat(43);
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push((await s.redeem(guessed)).statusCode);
    expect(answers.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(answers.slice(5)).toEqual([429, 429, 429]);
    const limited = await s.redeem(guessed);
    expect(limited.json()).toMatchObject({ code: 'rate_limited' });

    const used = await s.newCode();
    expect((await s.redeem(used)).statusCode).toBe(200);
    const replays = [];
    for (let i = 0; i < 6; i++) replays.push((await s.redeem(used)).statusCode);
    expect(replays).toContain(429);

    expect((await s.redeem(await s.newCode())).statusCode).toBe(200);
  });

  it('counts a caller without the right secret per address, and does not lock out the sister app', async () => {
    const perIp = s.t.services.config.AUTH_RATE_LIMIT_PER_IP;
    const code = await s.newCode();
    for (let i = 0; i < perIp; i++) {
      const res = await s.redeem(code, `wrong-${i}-${'x'.repeat(40)}`, STRANGER);
      expect(res.statusCode, `guess ${i + 1}`).toBe(401);
      expect(res.json()).toMatchObject({ code: 'invalid_client' });
    }
    const over = await s.redeem(code, 'x'.repeat(43), STRANGER);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ code: 'rate_limited' });
    // The right secret from that same address is the sister app, counted by its secret.
    expect((await s.redeem(code, s.t.services.communityAppSecret, STRANGER)).statusCode).toBe(200);
    expect((await s.redeem(await s.newCode())).statusCode).toBe(200);
  });
});

describe(`the sister app's own limit (${testDbKind})`, () => {
  it('answers 429 past HANDOFF_REDEEM_RATE_LIMIT_PER_MINUTE redemptions', async () => {
    const s = await site({ HANDOFF_REDEEM_RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push((await s.redeem(await s.newCode())).statusCode);
      expect(answers).toEqual([200, 200, 200, 429]);
    } finally {
      await s.t.close();
    }
  });
});
