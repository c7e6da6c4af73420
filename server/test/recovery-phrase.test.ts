// The recovery phrase saved (docs/security.md#the-recovery-phrase): the words typed back make the
// member's wallet, whose key signs a 'backup-phrase' challenge; the server then records it and the
// dashboard's "Back up your wallet" task goes. Tried as a stranger would: another key signing for
// the member's address, a replayed proof, a proof made for another purpose, a wallet no member
// has, malformed bodies, and many attempts.
import type { UserDetails } from '@crw/core';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  joinAndConfirm,
  makeMemberKeys,
  ORIGIN,
  signChallenge,
  signedInCookie,
  walletChallenge,
  type MemberKeys,
} from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

let t: TestApp;
let a: MemberKeys;
let cookie: string;

const phraseSaved = (body: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/api/wallet/phrase-saved',
    headers: { origin: ORIGIN },
    payload: body as object,
  });

async function saved(): Promise<boolean> {
  const res = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
  return (res.json() as UserDetails).wallet.phraseSaved;
}

beforeAll(async () => {
  t = await buildTestApp({ chain: false, env: { PUBLIC_URL: ORIGIN } });
  a = await makeMemberKeys();
  await joinAndConfirm(t.app, t.services.database.db, a);
  cookie = await signedInCookie(t.app, a);
}, 60_000);
afterAll(() => t?.close());

describe(`the recovery phrase saved (${testDbKind})`, () => {
  it('a new member has not saved it yet', async () => {
    expect(await saved()).toBe(false);
  });

  it('refuses another key signing for the member, a proof for another purpose, and malformed bodies', async () => {
    const stranger = Wallet.createRandom();
    const forged = await phraseSaved({
      address: a.address,
      proof: await signChallenge(
        await walletChallenge(t.app, 'backup-phrase'),
        stranger.privateKey,
      ),
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().code).toBe('invalid_wallet_proof');
    const otherPurpose = await phraseSaved({
      address: a.address,
      proof: await signChallenge(await walletChallenge(t.app, 'register'), a.privateKey),
    });
    expect(otherPurpose.statusCode).toBe(400);
    for (const body of [
      {},
      { address: a.address },
      { address: 'nope', proof: { nonce: 'a'.repeat(32), signature: `0x${'1'.repeat(130)}` } },
      { address: a.address, proof: { nonce: 'short', signature: '0x12' } },
    ])
      expect((await phraseSaved(body)).statusCode, JSON.stringify(body)).toBe(400);
    expect(await saved()).toBe(false);
  });

  it('a wallet no member has is not found, even with a good signature', async () => {
    const stranger = Wallet.createRandom();
    const res = await phraseSaved({
      address: stranger.address,
      proof: await signChallenge(
        await walletChallenge(t.app, 'backup-phrase'),
        stranger.privateKey,
      ),
    });
    expect(res.statusCode).toBe(404);
  });

  it('the member’s own key records it, without a session, once; a replay is refused', async () => {
    const proof = await signChallenge(await walletChallenge(t.app, 'backup-phrase'), a.privateKey);
    const first = await phraseSaved({ address: a.address.toLowerCase(), proof });
    expect(first.statusCode, first.body).toBe(200);
    expect(await saved()).toBe(true);
    const replay = await phraseSaved({ address: a.address, proof });
    expect(replay.statusCode).toBe(400);
    const { phrase_saved_at: at } = await t.services.database.db
      .selectFrom('user_wallets')
      .select('phrase_saved_at')
      .where('wallet_address', '=', a.address.toLowerCase())
      .executeTakeFirstOrThrow();
    // Checking again later keeps the first time.
    const again = await phraseSaved({
      address: a.address,
      proof: await signChallenge(await walletChallenge(t.app, 'backup-phrase'), a.privateKey),
    });
    expect(again.statusCode).toBe(200);
    const after = await t.services.database.db
      .selectFrom('user_wallets')
      .select('phrase_saved_at')
      .where('wallet_address', '=', a.address.toLowerCase())
      .executeTakeFirstOrThrow();
    expect(after.phrase_saved_at).toEqual(at);
  });

  it('asking for challenges is limited per client address like the sign-up', async () => {
    const limited = await buildTestApp({
      chain: false,
      env: { PUBLIC_URL: ORIGIN, AUTH_RATE_LIMIT_PER_IP: '3' },
    });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 5; i++)
        codes.push(
          (
            await limited.app.inject({
              method: 'POST',
              url: '/api/wallet/challenge',
              headers: { origin: ORIGIN },
              payload: { purpose: 'backup-phrase' },
            })
          ).statusCode,
        );
      expect(codes).toContain(429);
    } finally {
      await limited.close();
    }
  });
});
