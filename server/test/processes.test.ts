// Several server processes on one database: work that must happen once happens once.
// Two app instances on one database stand for two processes (on PostgreSQL each has its own pool).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_KEYS } from '../src/infra/db/lock-keys';
import { joinAndConfirm, makeMemberKeys } from './helpers/members';
import { buildTestApp, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

let first: TestApp;
let second: TestApp;

beforeAll(async () => {
  first = await buildTestApp();
  second = await buildTestApp({ sameDatabaseAs: first });
  await joinAndConfirm(first.app, first.services.database.db, await makeMemberKeys());
}, 60_000);
afterAll(async () => {
  await second?.close();
  await first?.close();
});

const publish = (t: TestApp) =>
  t.app.inject({
    method: 'POST',
    url: '/api/operator/distributions',
    headers: { authorization: `Bearer ${t.services.operatorKey}` },
  });

describe(`publishing a round across processes (${testDbKind})`, () => {
  it('answers 409 in one process while another holds the publishing lock, and publishes once it is free', async () => {
    const lock = first.services.database.leaderLock(LOCK_KEYS.publishRound);
    expect(await lock.tryAcquire()).toBe(true);
    try {
      const refused = await publish(second);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({
        code: 'conflict',
        message: 'A distribution round is being published right now.',
      });
      expect(
        await first.services.database.db
          .selectFrom('distribution_rounds')
          .select('round_index')
          .execute(),
      ).toEqual([]);
    } finally {
      await lock.release();
    }
    const published = await publish(second);
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json()).toMatchObject({ index: 1, outcome: 'published' });
  });

  it('lets only one of two simultaneous publishers work; the round exists once', async () => {
    await joinAndConfirm(first.app, first.services.database.db, await makeMemberKeys());
    const answers = await Promise.all([publish(second), publish(second)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const rounds = await first.services.database.db
      .selectFrom('distribution_rounds')
      .select(['round_index', 'status'])
      .orderBy('round_index')
      .execute();
    expect(rounds).toEqual([
      { round_index: 1, status: 'published' },
      { round_index: 2, status: 'published' },
    ]);
  });
});
