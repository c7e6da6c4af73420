// The sign-up gate for the form on screen (docs/security.md#the-sign-up-gate): its challenge is
// fetched and solved as soon as the form shows, while the member types, so pressing the button
// rarely waits (the button is busy while it does). A solution works once and for a few minutes:
// a used or stale one is replaced by solving again.
import { GATE_CHALLENGE_SECONDS, type GateForm, type GatePass } from '@crw/core';
import { useCallback, useEffect, useRef } from 'react';
import { ApiError } from '../../../lib/api-client';
import { GATE_REFUSALS, passGate } from '../../../lib/gate/solve-gate';

interface Ahead {
  form: GateForm;
  pass: Promise<GatePass>;
  /** After this, it may expire before the server sees it: solve again. */
  freshUntil: number;
}

function solveAhead(form: GateForm): Ahead {
  const pass = passGate(form);
  pass.catch(() => undefined); // a failure is reported when the solution is taken
  return { form, pass, freshUntil: Date.now() + (GATE_CHALLENGE_SECONDS - 60) * 1000 };
}

export interface SignupGate {
  /** A solution to send: the one solved ahead while it is fresh, else a new one (tried twice; a
   * GateUnavailableError says what to do when neither could be had). */
  take(): Promise<GatePass>;
  /** Sends `request` with a solution (`first`, or one taken now) and, if the server refuses it
   * (expired while the page was open, the network now asks for more work), once more with a new one. */
  send<T>(request: (gate: GatePass) => Promise<T>, first?: Promise<GatePass>): Promise<T>;
}

/** `form`: the form on screen, or null when it needs no gate (signing in). */
export function useSignupGate(form: GateForm | null): SignupGate {
  const ahead = useRef<Ahead | null>(null);

  useEffect(() => {
    ahead.current = form ? solveAhead(form) : null;
  }, [form]);

  const take = useCallback(async (): Promise<GatePass> => {
    if (!form) throw new Error('This form has no security check.');
    const current = ahead.current;
    ahead.current = null;
    const fresh =
      current && current.form === form && Date.now() < current.freshUntil
        ? current
        : solveAhead(form);
    try {
      return await fresh.pass;
    } catch {
      // A dropped connection or a busy moment: once more, and that answer is the member's.
      return passGate(form);
    }
  }, [form]);

  const send = useCallback(
    async <T>(request: (gate: GatePass) => Promise<T>, first?: Promise<GatePass>): Promise<T> => {
      try {
        return await request(await (first ?? take()));
      } catch (error) {
        if (!(error instanceof ApiError && GATE_REFUSALS.has(error.code))) throw error;
        return request(await take());
      }
    },
    [take],
  );

  return { take, send };
}
