// The sign-up gate (docs/security.md#the-sign-up-gate): before a registration, a resend of the
// confirmation mail or a password reset request, the browser solves a proof-of-work challenge
// (ALTCHA, PBKDF2/SHA-256) that this server issued. A challenge is HMAC-signed, names its form and
// expires; a solution is checked here, for its form only, and works once across every process (its
// nonce is kept in signup_gate_uses until after it expires). A client network that registered
// SIGNUP_GATE_NETWORK_HOURLY_SIGNUPS accounts in the last hour gets the raised difficulty.
import { hkdfSync } from 'node:crypto';
import {
  GATE_CHALLENGE_SECONDS,
  type GateChallenge,
  type GateForm,
  type GatePass,
} from '@crw/core';
import { createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { AppError } from '../../app-error';
import type { Config } from '../../config';
import type { DB } from '../../infra/db/schema';
import { keyFromFile } from '../../key-file';
import { signupNetwork } from './client-network';

/** PBKDF2 iterations per attempt: each attempt is one derivation, native in browsers (WebCrypto)
 * and in Node, so a native solver has little edge over a phone. */
export const GATE_COST = 1_000;
const GATE_ALGORITHM = 'PBKDF2/SHA-256';

/** How long a registration counts for its network. */
const NETWORK_WINDOW = '1 hour';
/** A used solution is kept this long past its challenge's expiry, so a process whose clock lags
 * the database's still finds it used. */
const KEEP_AFTER_EXPIRY = '10 minutes';
/** Expired rows are deleted at most this often per process, as solutions are used. */
const PRUNE_EVERY_MS = 60_000;

export type GateDifficulty = 'base' | 'raised';

/** A solution let through, for marking the registration it allowed. */
export interface GateTicket {
  nonce: string;
}

export interface GateSecrets {
  /** Signs each challenge. */
  challenge: string;
  /** Signs each challenge's answer (the derived key), so checking a solution costs one HMAC. */
  answer: string;
}

/** The gate's HMAC keys, derived from AUTH_SECRET when it is set (production requires it), else
 * from DATA_DIR/signup-gate-key, made at first start (mode 0600). Every process of one install
 * derives the same keys. */
async function gateSecrets(config: Config): Promise<GateSecrets> {
  const root = config.AUTH_SECRET ?? (await keyFromFile(config.dataDir, 'signup-gate-key'));
  const derive = (purpose: string) =>
    Buffer.from(hkdfSync('sha256', root, '', `signup-gate ${purpose}`, 32)).toString('base64url');
  return { challenge: derive('challenge'), answer: derive('answer') };
}

/** The most attempts (counter values) a challenge of `difficulty` asks for. */
export function gateMaxNumber(config: Config, difficulty: GateDifficulty): number {
  const base = config.SIGNUP_GATE_BASE_MAX_NUMBER;
  return difficulty === 'base' ? base : Math.max(base, config.SIGNUP_GATE_RAISED_MAX_NUMBER);
}

/** A signed challenge for `form`. The answer is a counter drawn between half of the difficulty's
 * maximum and the maximum, so no challenge is much cheaper than the rest and none dearer than it. */
export async function issueGateChallenge(
  config: Config,
  secrets: GateSecrets,
  form: GateForm,
  difficulty: GateDifficulty,
): Promise<GateChallenge> {
  const max = gateMaxNumber(config, difficulty);
  const challenge = await createChallenge({
    algorithm: GATE_ALGORITHM,
    cost: GATE_COST,
    counter: randomInt(max, Math.ceil(max / 2)),
    deriveKey,
    data: { form, difficulty },
    expiresAt: Math.floor(Date.now() / 1000) + GATE_CHALLENGE_SECONDS,
    hmacSignatureSecret: secrets.challenge,
    hmacKeySignatureSecret: secrets.answer,
  });
  return challenge as GateChallenge;
}

export interface SignupGate {
  /** A challenge for `form` at the difficulty the client's network has earned. */
  challenge(form: GateForm, request: FastifyRequest): Promise<GateChallenge>;
  /** Checks the solution for `form` and uses it up, or refuses (400 gate_failed, gate_expired,
   * gate_used). */
  pass(form: GateForm, request: FastifyRequest, gate: GatePass | undefined): Promise<GateTicket>;
  /** preHandler: `pass` with the body's `gate`. */
  guard(form: GateForm): preHandlerAsyncHookHandler;
  /** The registration `ticket` let through succeeded: it counts for its network for an hour. */
  registered(ticket: GateTicket): Promise<void>;
}

type Refusal = 'gate_failed' | 'gate_expired' | 'gate_used';

function refuse(request: FastifyRequest, form: GateForm, code: Refusal, reason: string): never {
  request.log.info({ form, reason }, 'sign-up gate refused');
  throw new AppError(400, code);
}

export async function signupGate(config: Config, db: Kysely<DB>): Promise<SignupGate> {
  const secrets = await gateSecrets(config);
  let prunedAt = 0;

  async function difficultyFor(network: string): Promise<GateDifficulty> {
    const row = await db
      .selectFrom('signup_gate_uses')
      .select((eb) => eb.fn.countAll().as('registrations'))
      .where('network', '=', network)
      .where('registered', '=', true)
      .where('used_at', '>', sql<Date>`now() - ${sql.lit(NETWORK_WINDOW)}::interval`)
      .executeTakeFirstOrThrow();
    return Number(row.registrations) >= config.SIGNUP_GATE_NETWORK_HOURLY_SIGNUPS
      ? 'raised'
      : 'base';
  }

  async function prune(): Promise<void> {
    if (Date.now() - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = Date.now();
    await db
      .deleteFrom('signup_gate_uses')
      .where('keep_until', '<', sql<Date>`now()`)
      .execute();
  }

  const gate: SignupGate = {
    async challenge(form, request) {
      return issueGateChallenge(
        config,
        secrets,
        form,
        await difficultyFor(signupNetwork(request.ip)),
      );
    },

    async pass(form, request, pass) {
      if (!pass) return refuse(request, form, 'gate_failed', 'no solution');
      const { parameters } = pass.challenge;
      let verified;
      try {
        verified = await verifySolution({
          challenge: pass.challenge,
          solution: pass.solution,
          deriveKey,
          hmacSignatureSecret: secrets.challenge,
          hmacKeySignatureSecret: secrets.answer,
        });
      } catch {
        return refuse(request, form, 'gate_failed', 'unreadable solution');
      }
      if (verified.expired) return refuse(request, form, 'gate_expired', 'expired');
      if (verified.invalidSignature) return refuse(request, form, 'gate_failed', 'bad signature');
      if (!verified.verified) return refuse(request, form, 'gate_failed', 'wrong answer');
      if (parameters.data.form !== form)
        return refuse(request, form, 'gate_failed', `solved for ${parameters.data.form}`);
      const network = signupNetwork(request.ip);
      await prune();
      const expiresAt = new Date(parameters.expiresAt * 1000);
      const keepUntil =
        form === 'register'
          ? sql<Date>`greatest(${expiresAt}::timestamptz, now() + ${sql.lit(NETWORK_WINDOW)}::interval) + ${sql.lit(KEEP_AFTER_EXPIRY)}::interval`
          : sql<Date>`${expiresAt}::timestamptz + ${sql.lit(KEEP_AFTER_EXPIRY)}::interval`;
      // One INSERT decides: of two requests with one solution, the second conflicts.
      const used = await db
        .insertInto('signup_gate_uses')
        .values({
          nonce: parameters.nonce,
          form,
          network: form === 'register' ? network : null,
          keep_until: keepUntil,
        })
        .onConflict((oc) => oc.column('nonce').doNothing())
        .returning('nonce')
        .executeTakeFirst();
      if (!used) return refuse(request, form, 'gate_used', 'used before');
      // A network that became busy since its challenge was issued pays the raised difficulty now.
      if (parameters.data.difficulty === 'base' && (await difficultyFor(network)) === 'raised')
        return refuse(request, form, 'gate_failed', 'base difficulty from a busy network');
      return { nonce: used.nonce };
    },

    guard(form) {
      return async (request) => {
        await gate.pass(form, request, (request.body as { gate?: GatePass } | undefined)?.gate);
      };
    },

    async registered(ticket) {
      await db
        .updateTable('signup_gate_uses')
        .set({ registered: true })
        .where('nonce', '=', ticket.nonce)
        .execute();
    },
  };
  return gate;
}
