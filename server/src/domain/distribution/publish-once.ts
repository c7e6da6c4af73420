// Publishing a round from any process, one at a time: the publish lock makes every other
// publisher (another process, the CLI, the console) answer 409 at once instead of racing.
import type { PublishRoundResult } from '@crw/core';
import { AppError } from '../../app-error';
import { LOCK_KEYS } from '../../infra/db/lock-keys';
import type { AppServices } from '../../services';
import { publishRound, RoundConflict, type StepHook } from './rounds';

export async function publishOnce(
  services: AppServices,
  hook?: StepHook,
): Promise<PublishRoundResult> {
  const lock = services.database.leaderLock(LOCK_KEYS.publishRound);
  if (!(await lock.tryAcquire()))
    throw new AppError(409, 'conflict', 'A distribution round is being published right now.');
  try {
    return await publishRound(services.database.db, services.chain, hook);
  } catch (error) {
    if (!(error instanceof RoundConflict)) throw error;
    throw new AppError(409, 'conflict', error.message);
  } finally {
    await lock.release();
  }
}
