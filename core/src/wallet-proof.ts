// Proof that a wallet is the member's own (docs/security.md): the wallet's key signs a
// server-issued, single-use challenge as an EIP-4361 (Sign-In with Ethereum) message. The browser
// builds the text from the challenge and its address; the server rebuilds it from what it stored,
// so it never parses text the client wrote.
import * as z from 'zod/mini';

export const WALLET_PROOF_PURPOSES = [
  'register',
  'save-wallet',
  'change-password',
  'backup-phrase',
] as const;
export type WalletProofPurpose = (typeof WALLET_PROOF_PURPOSES)[number];

/** What the member's wallet agrees to, in plain words, per purpose. */
export const WALLET_PROOF_STATEMENTS: Record<WalletProofPurpose, string> = {
  register: 'Link this wallet to my Community Rewards account.',
  'save-wallet': 'Save the new lock of this wallet for my Community Rewards account.',
  'change-password': 'Lock this wallet with my new Community Rewards password.',
  'backup-phrase': 'I have saved the recovery phrase of this wallet.',
};

/** How long a challenge can be signed and used. */
export const WALLET_CHALLENGE_TTL_S = 10 * 60;

export const walletChallengeRequest = z.object({ purpose: z.enum(WALLET_PROOF_PURPOSES) });

/** POST /api/wallet/challenge: everything the wallet needs to build the message it signs. */
export const walletChallengeResponse = z.object({
  purpose: z.enum(WALLET_PROOF_PURPOSES),
  domain: z.string(),
  uri: z.string(),
  chainId: z.number(),
  nonce: z.string(),
  issuedAt: z.string(),
  expiresAt: z.string(),
});
export type WalletChallenge = z.infer<typeof walletChallengeResponse>;

/** The signed answer sent with the wallet: the challenge's nonce and the EIP-191 signature. */
export const walletProofField = z.object({
  nonce: z.string().check(z.regex(/^[0-9a-f]{32}$/)),
  signature: z.string().check(z.regex(/^0x[0-9a-fA-F]{130}$/)),
});
export type WalletProof = z.infer<typeof walletProofField>;

/** The EIP-4361 message for `address` (EIP-55 checksummed, as the format requires). */
export function walletProofMessage(challenge: WalletChallenge, checksummedAddress: string): string {
  return [
    `${challenge.domain} wants you to sign in with your Ethereum account:`,
    checksummedAddress,
    '',
    WALLET_PROOF_STATEMENTS[challenge.purpose],
    '',
    `URI: ${challenge.uri}`,
    'Version: 1',
    `Chain ID: ${challenge.chainId}`,
    `Nonce: ${challenge.nonce}`,
    `Issued At: ${challenge.issuedAt}`,
    `Expiration Time: ${challenge.expiresAt}`,
  ].join('\n');
}
