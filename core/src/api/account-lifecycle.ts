// The account page's password change, data export and deletion. Each change needs the
// member's current auth secret again (re-authentication), not just the session: a session left
// open on a shared device must not be enough to lock the member out or erase them.
import * as z from 'zod/mini';
import { authSecretField, walletPayload } from './account';

/** POST /api/account/password: both auth secrets (the browser derives them from the passwords,
 * which never leave it) and the same wallet locked with the new password, with a fresh proof
 * (purpose 'change-password'). The server changes both in one transaction or neither. */
export const changePasswordRequest = z.object({
  currentAuthSecret: authSecretField,
  newAuthSecret: authSecretField,
  wallet: walletPayload,
});
/** How many other sessions of the member ended (every one but the one that asked). */
export const changePasswordResponse = z.object({
  ok: z.literal(true),
  otherSessionsEnded: z.number(),
});

/** DELETE /api/account: the current auth secret again, whatever the session says. */
export const deleteMyAccountRequest = z.object({ authSecret: authSecretField });

const ledgerKinds = ['signup', 'referral', 'care_action', 'conversion'] as const;

/**
 * GET /api/account/export: what the service holds about the member, as a file. It names nobody
 * else: a referral credit says its level, never who joined (no id, e-mail or name), and the
 * member's own referrer is not named either. The schema is also the response's serializer, which
 * drops any field not listed here.
 */
/** A member's CAPs by where they came from, and their total. */
export const capsTotals = z.object({
  registration: z.number(),
  referrals: z.number(),
  careActions: z.number(),
  total: z.number(),
});

/** One CAPs credit of the reward ledger. */
export const ledgerEntry = z.object({
  kind: z.enum(ledgerKinds),
  caps: z.number(),
  reme: z.string(),
  level: z.nullable(z.number()),
  description: z.string(),
  createdAt: z.string(),
});

export const accountExportResponse = z.object({
  format: z.literal('community-rewards-account-export/1'),
  exportedAt: z.string(),
  profile: z.object({
    email: z.string(),
    fullName: z.string(),
    username: z.string(),
    referralCode: z.nullable(z.string()),
    emailConfirmed: z.boolean(),
    createdAt: z.string(),
  }),
  wallet: z.nullable(z.object({ address: z.string(), keystoreUpdatedAt: z.string() })),
  caps: capsTotals,
  /** Every CAPs credit: kind, amount, REME in base units (wei), level for referral credits, when. */
  ledger: z.array(ledgerEntry),
  /** How many members joined through the member, per level (counts only). */
  referralCounts: z.object({ level1: z.number(), level2: z.number(), level3: z.number() }),
  /** The member's leaf in each distribution round: cumulative REME in base units (wei). */
  distributions: z.array(
    z.object({
      round: z.number(),
      status: z.string(),
      walletAddress: z.string(),
      cumulativeAmount: z.string(),
      publishedAt: z.nullable(z.string()),
    }),
  ),
  /** What the sign-up looked like, kept while its rewards are held: the network's prefix and the
   * hashed class of the browser (docs/operations.md#the-signals); null once deleted. */
  signupSignals: z.nullable(
    z.object({
      network: z.string(),
      deviceClass: z.nullable(z.string()),
      createdAt: z.string(),
      /** When the member first opened the app after signing up. */
      openedAt: z.nullable(z.string()),
    }),
  ),
  claims: z.object({
    /** Claims the chain recorded for the member's wallet (the follower's index). */
    onChain: z.array(z.object({ blockNumber: z.number(), txHash: z.string(), amount: z.string() })),
    /** Claims the community's relayer sent for the member (sponsored claims). */
    sponsored: z.array(
      z.object({
        round: z.number(),
        amount: z.string(),
        status: z.string(),
        reason: z.nullable(z.string()),
        requestedAt: z.string(),
        updatedAt: z.string(),
      }),
    ),
  }),
});
export type AccountExport = z.infer<typeof accountExportResponse>;

/** The export's file name, the same on the server (Content-Disposition) and in the browser. */
export function accountExportFileName(at: Date): string {
  return `community-rewards-data-${at.toISOString().slice(0, 10)}.json`;
}
