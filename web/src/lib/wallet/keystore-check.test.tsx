// The check after sign-in: a keystore the typed password does not open (a reset from before the
// server kept track) takes the member to recovery with that password; one that opens changes nothing.
import { render, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { carryOver } from '../carry-over';
import { checkKeystoreInBackground, useKeystoreCheck, type CheckRunner } from './keystore-check';

/** The wallet worker's stand-in: each test says how the check turns out. */
const task = vi.fn<CheckRunner>();

function Member() {
  useKeystoreCheck();
  return <p>dashboard</p>;
}

function renderDashboard() {
  const router = createMemoryRouter(
    [
      { path: '/dashboard', element: <Member /> },
      { path: '/recover-wallet', element: <p>recovery</p> },
    ],
    { initialEntries: ['/dashboard'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('the keystore check after sign-in', () => {
  beforeEach(() => {
    carryOver.clear('recoveryPassword');
    task.mockReset();
  });

  it('sends the member to recovery, with the typed password, when the keystore does not open', async () => {
    task.mockResolvedValue({ opens: false });
    checkKeystoreInBackground('{"keystore":1}', 'typed-password', task);
    const router = renderDashboard();
    await waitFor(() => expect(router.state.location.pathname).toBe('/recover-wallet'));
    expect(carryOver.peek('recoveryPassword')).toBe('typed-password');
    expect(task).toHaveBeenCalledWith({
      kind: 'check',
      keystore: '{"keystore":1}',
      password: 'typed-password',
    });
  });

  it('leaves the member on the dashboard when it opens, or when the worker fails', async () => {
    const outcomes = [
      () => Promise.resolve({ opens: true }),
      () => Promise.reject(new Error('worker')),
    ];
    for (const outcome of outcomes) {
      const settled = outcome();
      task.mockReturnValue(settled);
      checkKeystoreInBackground('{}', 'pw', task);
      const router = renderDashboard();
      await settled.catch(() => undefined);
      await new Promise((r) => setTimeout(r, 0));
      expect(router.state.location.pathname).toBe('/dashboard');
      expect(carryOver.peek('recoveryPassword')).toBeUndefined();
    }
  });
});
