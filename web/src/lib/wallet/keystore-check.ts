// After sign-in the dashboard opens at once and the keystore is checked in the wallet worker
// meanwhile. The server says when a password reset left the keystore locked by the old password;
// a reset made before it kept track (migration 0015) shows up here instead, and the member is taken
// to the recovery screen with the password they typed.
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { carryOver } from '../carry-over';
import { runWalletTask } from './wallet-client';

let pending: Promise<boolean> | null = null;

/** What runs the check: the wallet worker (a test gives its own). */
export type CheckRunner = (task: {
  kind: 'check';
  keystore: string;
  password: string;
}) => Promise<{ opens: boolean }>;

export function checkKeystoreInBackground(
  keystore: string,
  password: string,
  run: CheckRunner = runWalletTask,
): void {
  pending = run({ kind: 'check', keystore, password }).then(
    ({ opens }) => {
      if (!opens) carryOver.put('recoveryPassword', password);
      return opens;
    },
    // A worker that failed is no sign of a stale keystore: the member stays where they are.
    () => true,
  );
}

/** On member pages: goes to the recovery screen if the check after sign-in found the keystore stale. */
export function useKeystoreCheck(): void {
  const navigate = useNavigate();
  useEffect(() => {
    const check = pending;
    if (!check) return;
    let live = true;
    void check.then((opens) => {
      if (pending === check) pending = null;
      if (live && !opens) void navigate('/recover-wallet', { replace: true });
    });
    return () => {
      live = false;
    };
  }, [navigate]);
}
