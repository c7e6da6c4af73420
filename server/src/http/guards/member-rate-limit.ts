// A per-member limit kept in this process's memory: each process counts its own asks (so N
// processes allow N times the limit). For asks that cost the server something but no money.
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../../app-error';

/** Counts a member's ask of `what` in this process, or answers 429. */
export function limitPerMember(what: string, perMinute: number) {
  const limiter = new RateLimiterMemory({ keyPrefix: what, points: perMinute, duration: 60 });
  return async (userId: string) => {
    try {
      await limiter.consume(userId);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      throw new AppError(429, 'rate_limited');
    }
  };
}
