// A background pass (mail outbox, push, notices, held rewards) that fails while the database is
// away logs a warning, as requests answer 503 then; anything else stays an error. The outage test
// found the push worker logging errors while PostgreSQL restarted.
import { describe, expect, it } from 'vitest';
import type { Log } from '../../src/logging';
import { logPassFailure } from '../../src/infra/db/unavailable';

function recorder() {
  const lines: Array<{ level: 'warn' | 'error'; msg: string }> = [];
  const log = {
    warn: (_o: unknown, msg: string) => lines.push({ level: 'warn', msg }),
    error: (_o: unknown, msg: string) => lines.push({ level: 'error', msg }),
  } as unknown as Log;
  return { lines, log };
}

describe('logPassFailure', () => {
  it('a refused or dropped connection is a warning', () => {
    const { lines, log } = recorder();
    logPassFailure(
      log,
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      'push delivery pass failed',
    );
    logPassFailure(log, new Error('x', { cause: { code: '57P01' } }), 'mail outbox pass failed');
    expect(lines).toEqual([
      { level: 'warn', msg: 'push delivery pass failed: database unavailable' },
      { level: 'warn', msg: 'mail outbox pass failed: database unavailable' },
    ]);
  });

  it('anything else is an error', () => {
    const { lines, log } = recorder();
    logPassFailure(log, new TypeError('undefined is not a function'), 'queueing notices failed');
    expect(lines).toEqual([{ level: 'error', msg: 'queueing notices failed' }]);
  });
});
