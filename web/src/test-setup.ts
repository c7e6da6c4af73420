import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// A loaded machine (CI runs everything at once) can take over a second to load a lazy screen.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
});

// An unexpected console.error fails the test (CONVENTIONS: Tests).
const spy = vi.spyOn(console, 'error');
afterEach(() => {
  const calls = spy.mock.calls.slice();
  spy.mockClear();
  if (calls.length > 0)
    throw new Error(
      `Unexpected console.error: ${calls.map((c) => c.map(String).join(' ')).join('\n')}`,
    );
});
