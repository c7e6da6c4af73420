import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { stubFetch, takeUnanswered } from './test-network';

// A loaded machine (CI runs everything at once) can take over a second to load a lazy screen.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
});

// An unexpected console.error fails the test, as in the server tests and the journeys.
const spy = vi.spyOn(console, 'error');
afterEach(() => {
  const calls = spy.mock.calls.slice();
  spy.mockClear();
  if (calls.length > 0)
    throw new Error(
      `Unexpected console.error: ${calls.map((c) => c.map(String).join(' ')).join('\n')}`,
    );
});

// No test reaches a real network: until a test serves answers (test-fixtures.tsx), every request is
// refused, and a refused request fails the test that made it, named by method and path.
beforeEach(() => stubFetch(() => undefined));
afterEach(() => {
  const refused = takeUnanswered();
  if (refused.length > 0)
    throw new Error(`Requests the test served no answer for:\n${refused.join('\n')}`);
});
