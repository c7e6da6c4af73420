// The sign-up gate as the browser passes it, for tests, journeys and benchmarks: ask the app for a
// challenge, then solve it with ALTCHA's solver on Node's PBKDF2 (at the base difficulty, tens of
// milliseconds). Nothing is switched off: every registration, resend and reset made through the
// API solves a real challenge.
import { gateChallenge, type GateChallenge, type GateForm, type GatePass } from '@crw/core';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { FastifyInstance } from 'fastify';

/** The app in process or a running server's base URL (as members.ts's AppTarget). */
type AppTarget = FastifyInstance | string;

/** A challenge for `form` from the app in process (as if from `remoteAddress`) or a running server. */
export async function gateChallengeFor(
  target: AppTarget,
  form: GateForm,
  remoteAddress?: string,
): Promise<GateChallenge> {
  const url = `/api/signup-gate/challenge?form=${form}`;
  if (typeof target === 'string') {
    const res = await fetch(`${target}${url}`);
    if (res.status !== 200) throw new Error(`gate challenge: ${res.status} ${await res.text()}`);
    return gateChallenge.parse(await res.json());
  }
  const res = await target.inject({
    method: 'GET',
    url,
    ...(remoteAddress ? { remoteAddress } : {}),
  });
  if (res.statusCode !== 200) throw new Error(`gate challenge: ${res.statusCode} ${res.body}`);
  return gateChallenge.parse(res.json());
}

/** Solves `challenge` as a client must: counter by counter until the derived key matches. */
export async function solveGate(challenge: GateChallenge): Promise<GatePass> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('the gate challenge was not solved in time');
  return { challenge, solution: { counter: solution.counter, derivedKey: solution.derivedKey } };
}

/** A fresh solution for `form`: the body's `gate` field. */
export async function passGate(
  target: AppTarget,
  form: GateForm,
  remoteAddress?: string,
): Promise<GatePass> {
  return solveGate(await gateChallengeFor(target, form, remoteAddress));
}
