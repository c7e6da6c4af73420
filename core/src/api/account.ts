import * as z from 'zod/mini';
import { plainText } from './common';
import { capsBreakdown } from './referrals';
import { memberTokens, publicChain } from './claims';
import { AUTH_SECRET_PATTERN } from '../auth-secret';
import { ADDRESS_PATTERN, KEYSTORE_MAX_LENGTH } from '../keystore';
import { walletProofField } from '../wallet-proof';
import { gateField } from './signup-gate';

export const authSecretField = z
  .string()
  .check(z.regex(AUTH_SECRET_PATTERN, 'must be a derived auth secret'));
export const emailField = z.pipe(
  z.email().check(z.maxLength(254)),
  z.transform((e: string) => e.trim().toLowerCase()),
);

/** A wallet as the browser hands it over: its address, its keystore and the key's signature over
 * a server-issued challenge (wallet-proof.ts), so nobody can register an address they do not hold.
 * Also the body of PUT /api/wallet (saveNewWallet): the same wallet, re-encrypted. */
export const walletPayload = z.object({
  address: z.string().check(z.regex(ADDRESS_PATTERN)),
  keystore: plainText(KEYSTORE_MAX_LENGTH, { min: 2 }),
  proof: walletProofField,
});

/** POST /api/register: the account, its profile and its wallet, made in one transaction. */
export const registerRequest = z.object({
  email: emailField,
  authSecret: authSecretField,
  username: z.optional(plainText(64, { trim: true })),
  firstName: z.optional(plainText(80, { trim: true })),
  lastName: z.optional(plainText(80, { trim: true })),
  wallet: walletPayload,
  /** The sign-up gate's solution for `register` (signup-gate.ts). */
  gate: gateField,
  // Checked on the server, so a bad code gets the message naming it.
  referralCode: z.optional(plainText(200)),
  /** The screen and time zone, coarse: with the browser's family they make a hashed class the
   * server compares between sign-ups, never an identity (docs/operations.md#the-signals). */
  device: z.optional(
    z.object({
      screen: z.string().check(z.regex(/^\d{1,5}x\d{1,5}$/)),
      timeZone: plainText(64),
    }),
  ),
});
export type RegisterRequest = z.input<typeof registerRequest>;
export const registerResponse = z.object({
  needsEmailConfirmation: z.boolean(),
  userId: z.string(),
});

/** POST /api/wallet/phrase-saved: the typed-back recovery phrase made the wallet, whose key signed
 * a 'backup-phrase' challenge. Needs no session: the signature is the proof. */
export const phraseSavedRequest = z.object({
  address: z.string().check(z.regex(ADDRESS_PATTERN)),
  proof: walletProofField,
});

/** POST /api/register/check: asked before the wallet is made, so a taken e-mail is said at once.
 * 200 { ok: true } when it can sign up; 409 email_taken as the registration itself answers. */
export const registerCheckRequest = z.object({ email: emailField });

/** GET /api/me: what the signed-in member's pages show. */
export const userDetailsResponse = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string(),
  fullName: z.string(),
  referralCode: z.nullable(z.string()),
  /** PUBLIC_URL/r/{code} */
  referralLink: z.nullable(z.string()),
  caps: capsBreakdown,
  /** `lockedByOldPassword`: a password reset left the keystore locked by the old password, so the
   * member recovers it (old password or 12 words) before anything else. */
  wallet: z.object({
    address: z.string(),
    keystore: z.string(),
    lockedByOldPassword: z.boolean(),
    /** The member proved they saved the recovery phrase (typed it back); until then the
     * dashboard shows "Back up your wallet". */
    phraseSaved: z.boolean(),
  }),
  tokens: memberTokens,
  /** The getUserDetails flag, answered back: true when asked with `?firstTimeReferral=true` (the
   * browser arrived through `/refferal` and this is its first dashboard), so the welcome notice
   * follows the answer of the call that carried the flag, not later refreshes. */
  firstTimeReferral: z.boolean(),
});
export type UserDetails = z.infer<typeof userDetailsResponse>;
export const userDetailsQuery = z.object({
  firstTimeReferral: z.optional(z.enum(['true', 'false'])),
});

export const okResponse = z.object({ ok: z.literal(true) });

/** DELETE /dev/account: the test-only account deletion routine (outside production). */
export const deleteAccountResponse = z.object({ success: z.boolean(), message: z.string() });

/** GET /api/config: the public part of the configuration the web app needs. */
export const publicConfigResponse = z.object({
  links: z.object({
    mainSite: z.string(),
    terms: z.string(),
    help: z.string(),
    market: z.string(),
  }),
  chain: publicChain,
  /** What a member needs to know about ETH for fees. */
  eth: z.object({
    /** GBP per ETH (ETH_PRICE_GBP), a decimal string: the £ value beside ETH amounts. */
    priceGbp: z.string(),
    /** Test ETH is free from a faucet: never "Buy ETH" there. */
    testNetwork: z.boolean(),
    faucetUrl: z.nullable(z.string()),
  }),
  /** Converting care CAPs into REME: whether the community allows it now, and its rate as CAPs
   * per REME ("6.028", CONVERSION_CAPS_PER_REME). */
  conversion: z.object({ open: z.boolean(), capsPerReme: z.string() }),
});
export type PublicConfig = z.infer<typeof publicConfigResponse>;
