// Publishing a round from any process, one at a time: the publish lock makes every other
// publisher (another process, the CLI, the console) stop at once instead of racing.
import type { PublishRoundResult } from '@crw/core';
import type { Chain } from '../../infra/chain/chain';
import type { Database } from '../../infra/db/database';
import { LOCK_KEYS } from '../../infra/db/lock-keys';
import { publishRound, type StepHook } from './rounds';

export { RoundConflict } from './rounds';

/** Another publisher holds the publish lock. */
export class PublishBusy extends Error {
  constructor() {
    super('A distribution round is being published right now.');
  }
}

/** Publishes the next round (or finishes an interrupted one); throws PublishBusy while another
 * publisher runs and RoundConflict when the round cannot be published as it stands. */
export async function publishOnce(
  { database, chain }: { database: Database; chain: Chain },
  hook?: StepHook,
): Promise<PublishRoundResult> {
  const lock = database.leaderLock(LOCK_KEYS.publishRound);
  if (!(await lock.tryAcquire())) throw new PublishBusy();
  try {
    return await publishRound(database.db, chain, hook);
  } finally {
    await lock.release();
  }
}
