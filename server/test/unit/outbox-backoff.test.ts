// The mail outbox's pause before a retry, on its own (the outbox itself: outbox.test.ts).
import { describe, expect, it } from 'vitest';
import { retryDelayMs } from '../../src/infra/mail/outbox';

describe('the mail outbox', () => {
  it('backs off exponentially, capped', () => {
    expect([1, 2, 3, 4, 10].map((a) => retryDelayMs(a, 1000, 5000))).toEqual([
      1000, 2000, 4000, 5000, 5000,
    ]);
  });
});
