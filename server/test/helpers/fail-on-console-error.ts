import { afterEach, vi } from 'vitest';

// An unexpected console.error fails the test, as in the web tests and the journeys.
const spy = vi.spyOn(console, 'error');
afterEach(() => {
  const calls = spy.mock.calls.slice();
  spy.mockClear();
  if (calls.length > 0)
    throw new Error(
      `Unexpected console.error: ${calls.map((c) => c.map(String).join(' ')).join('\n')}`,
    );
});
