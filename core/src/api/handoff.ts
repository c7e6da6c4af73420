import * as z from 'zod/mini';

/** Lifetime of a sister-app hand-off code (60 s, single use). */
export const HANDOFF_CODE_TTL_S = 60;
/** 32 random bytes, base64url. */
export const HANDOFF_CODE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** POST /api/handoff: a fresh one-time code for the signed-in member, already placed in the sister app's URL. */
export const handoffResponse = z.object({ url: z.string(), expiresInSeconds: z.int() });

/** POST /api/handoff/redeem: the sister app, server to server, trades the code for a signed identity. */
export const handoffRedeemRequest = z.object({
  code: z.string().check(z.regex(HANDOFF_CODE_PATTERN, 'must be a hand-off code')),
});
export const handoffRedeemResponse = z.object({
  /** A JWT signed by this server; verify it with the JWKS at /auth/.well-known/jwks.json. */
  token: z.string(),
  tokenType: z.literal('JWT'),
  expiresInSeconds: z.int(),
});
