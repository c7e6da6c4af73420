// Publishing never assumes the chain holds the round it built: a root published by
// someone else holding the operator key, or a chain that disagrees with the stored round, leaves
// the round unpublished with an error that names both roots.
import { hexlify, randomBytes } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishRound } from '../src/domain/distribution/rounds';
import { joinAndConfirm, makeMemberKeys } from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

let t: TestApp;

const stopAt = (at: string) => (step: string) => {
  if (step === at) throw new Error(`stopped after ${step}`);
};
const status = async (index: number) =>
  await t.services.database.db
    .selectFrom('distribution_rounds')
    .select(['status', 'root'])
    .where('round_index', '=', index)
    .executeTakeFirstOrThrow();

beforeAll(async () => {
  t = await buildTestApp();
  await joinAndConfirm(t.app, t.services.database.db, await makeMemberKeys());
}, 60_000);
afterAll(() => t?.close());

describe(`publishing checks the root on chain (${testDbKind})`, () => {
  it('after its own transaction: a stored round that differs from what the chain holds is not marked published', async () => {
    const { database, chain } = t.services;
    await expect(publishRound(database.db, chain, stopAt('sent'))).rejects.toThrow(
      'stopped after sent',
    );
    const built = (await status(1)).root;
    const other = hexlify(randomBytes(32));
    await database.db
      .updateTable('distribution_rounds')
      .set({ root: other })
      .where('round_index', '=', 1)
      .execute();

    await expect(publishRound(database.db, chain)).rejects.toThrow(
      new RegExp(
        `round 1 on chain has root ${built} \\(total \\d+\\), not the root ${other} \\(total \\d+\\) this server built`,
      ),
    );
    expect(await status(1)).toMatchObject({ status: 'sent' });

    await database.db
      .updateTable('distribution_rounds')
      .set({ root: built })
      .where('round_index', '=', 1)
      .execute();
    expect(await publishRound(database.db, chain)).toMatchObject({ index: 1, outcome: 'resumed' });
  });

  it('when the chain already holds the round: another root published with the operator key is refused', async () => {
    const { database, chain } = t.services;
    await joinAndConfirm(t.app, database.db, await makeMemberKeys());
    await expect(publishRound(database.db, chain, stopAt('prepared'))).rejects.toThrow(
      'stopped after prepared',
    );
    const rogue = hexlify(randomBytes(32));
    // Straight on the node with the operator's key, as anyone holding that key could.
    await (await chain.distributor.getFunction('proposeRoot')(2, rogue, 0n)).wait();

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/operator/distributions',
      headers: { authorization: `Bearer ${t.services.operatorKey}` },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(
        new RegExp(
          `round 2 on chain has root ${rogue} \\(total 0\\), not the root ${(await status(2)).root} \\(total \\d+\\) this server built`,
        ),
      ),
    });
    expect(await status(2)).toMatchObject({ status: 'prepared' });
  });
});
