// The sign-up gate in the browser (docs/security.md#the-sign-up-gate): fetch a challenge for a form
// and solve it in workers while the member fills the form in. Nothing of it is shown: the member
// sees a busy button if they press before it is done, and a plain message if it cannot run.
import { gateChallenge, type GateChallenge, type GateForm, type GatePass } from '@crw/core';
import { solveChallenge, solveChallengeWorkers } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';
import { apiFetch, ApiError } from '../api-client';

/** The codes of a refused solution (expired, used, for another form…): a fresh one may pass. */
export const GATE_REFUSALS = new Set(['gate_failed', 'gate_expired', 'gate_used']);

/** The gate could not be passed here (no challenge, or none solved): what the member should do. */
export class GateUnavailableError extends Error {
  constructor(cause: unknown) {
    super(
      cause instanceof ApiError && cause.code === 'rate_limited'
        ? cause.message
        : 'The security check could not run. Check your connection, then press the button again. If it keeps failing, reload the page.',
      { cause },
    );
  }
}

/** Longest a solve may take before it counts as failed: well inside the challenge's life. */
const SOLVE_TIMEOUT_MS = 200_000;

export function fetchGateChallenge(form: GateForm): Promise<GateChallenge> {
  return apiFetch(`/api/signup-gate/challenge?form=${form}`, gateChallenge);
}

/** In a worker (the base difficulty takes a phone a fraction of a second), or for the raised one a
 * worker per core up to eight, each counting its share; where workers do not exist, on this thread
 * (WebCrypto's PBKDF2 runs off it). */
async function solve(challenge: GateChallenge) {
  if (typeof Worker === 'undefined')
    return solveChallenge({ challenge, deriveKey, timeout: SOLVE_TIMEOUT_MS });
  const raised = challenge.parameters.data.difficulty === 'raised';
  return solveChallengeWorkers({
    challenge,
    concurrency: raised ? Math.min(8, navigator.hardwareConcurrency || 1) : 1,
    timeout: SOLVE_TIMEOUT_MS,
    createWorker: () =>
      new Worker(new URL('./gate.worker.ts', import.meta.url), {
        type: 'module',
        name: 'signup-gate',
      }),
  });
}

/** A solution for `form`, fetched and solved now; a GateUnavailableError when that cannot be. */
export async function passGate(form: GateForm): Promise<GatePass> {
  let solution: Awaited<ReturnType<typeof solve>>;
  let challenge: GateChallenge;
  try {
    challenge = await fetchGateChallenge(form);
    solution = await solve(challenge);
  } catch (error) {
    throw new GateUnavailableError(error);
  }
  if (!solution) throw new GateUnavailableError(new Error('not solved in time'));
  return { challenge, solution: { counter: solution.counter, derivedKey: solution.derivedKey } };
}
