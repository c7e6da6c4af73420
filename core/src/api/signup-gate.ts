// The sign-up gate (docs/security.md#the-sign-up-gate): a proof-of-work challenge (ALTCHA, PBKDF2 with
// SHA-256) that the browser solves while the member fills the form, sent with the registration,
// the confirmation mail's resend and the password reset request. The server signs each challenge
// for one form with an expiry; a solution works once.
import * as z from 'zod/mini';
import { INT4_MAX } from './common';

export const GATE_FORMS = ['register', 'resend', 'reset'] as const;
export type GateForm = (typeof GATE_FORMS)[number];

/** How long a challenge can be solved and used after it is issued. */
export const GATE_CHALLENGE_SECONDS = 5 * 60;

/** `base` for every client; `raised` for a network that registered many accounts in the last hour. */
export const GATE_DIFFICULTIES = ['base', 'raised'] as const;

/** Lowercase hex of `bytes` bytes. */
const hex = (bytes: number) => z.string().check(z.regex(new RegExp(`^[0-9a-f]{${bytes * 2}}$`)));

/** GET /api/signup-gate/challenge?form=… */
export const gateChallengeQuery = z.object({ form: z.enum(GATE_FORMS) });

/** A challenge as ALTCHA's library makes it: find the counter whose derived key starts with
 * `keyPrefix`. Every field is signed (`signature`, HMAC-SHA-256 over them all), so none can be
 * changed; `data` says which form it is for and how hard it was made. */
export const gateChallenge = z.object({
  parameters: z.object({
    algorithm: z.literal('PBKDF2/SHA-256'),
    cost: z.int().check(z.minimum(1), z.maximum(1_000_000)),
    data: z.object({ form: z.enum(GATE_FORMS), difficulty: z.enum(GATE_DIFFICULTIES) }),
    /** Unix seconds. */
    expiresAt: z.int().check(z.minimum(1)),
    keyLength: z.literal(32),
    keyPrefix: hex(16),
    keySignature: hex(32),
    nonce: hex(16),
    salt: hex(16),
  }),
  signature: hex(32),
});
export type GateChallenge = z.infer<typeof gateChallenge>;

/** What the browser sends in a gated form's `gate` field: the challenge as it came, and the answer. */
export const gatePass = z.object({
  challenge: gateChallenge,
  solution: z.object({
    // Far above any difficulty the settings allow (at most 100,000,000 attempts).
    counter: z.int().check(z.minimum(0), z.maximum(INT4_MAX)),
    derivedKey: hex(32),
  }),
});
export type GatePass = z.infer<typeof gatePass>;

/** The `gate` field of a gated form. Optional in the schema so that a form without it is answered
 * with the gate's own code (gate_failed), not a bare invalid_request. */
export const gateField = z.optional(gatePass);
