// Proof of possession (docs/security.md): challenges issued here, consumed once, and the wallet's
// signature over the EIP-4361 message rebuilt from what was stored — never from client text.
import { randomBytes } from 'node:crypto';
import {
  WALLET_CHALLENGE_TTL_S,
  walletProofMessage,
  type WalletChallenge,
  type WalletProof,
  type WalletProofPurpose,
} from '@crw/core';
import { getAddress, verifyMessage } from 'ethers';
import { sql, type Kysely } from 'kysely';
import { AppError } from '../../app-error';
import type { DB } from '../../infra/db/schema';

export interface ProofSite {
  publicUrl: string;
  chainId: number;
}

function challengeOf(
  site: ProofSite,
  row: {
    nonce: string;
    purpose: WalletProofPurpose;
    issued_at: Date | string;
    expires_at: Date | string;
  },
): WalletChallenge {
  const url = new URL(site.publicUrl);
  return {
    purpose: row.purpose,
    domain: url.host,
    uri: url.origin,
    chainId: site.chainId,
    nonce: row.nonce,
    issuedAt: new Date(row.issued_at).toISOString(),
    expiresAt: new Date(row.expires_at).toISOString(),
  };
}

/** A new challenge; a save-wallet challenge belongs to the signed-in member `userId`. */
export async function issueChallenge(
  db: Kysely<DB>,
  site: ProofSite,
  purpose: WalletProofPurpose,
  userId: string | null,
): Promise<WalletChallenge> {
  const issuedAt = new Date(Math.floor(Date.now() / 1000) * 1000);
  const row = {
    nonce: randomBytes(16).toString('hex'),
    purpose,
    user_id: userId,
    issued_at: issuedAt,
    expires_at: new Date(issuedAt.getTime() + WALLET_CHALLENGE_TTL_S * 1000),
  };
  // Expired challenges go as new ones come, so the table stays as small as the traffic.
  await db
    .deleteFrom('wallet_challenges')
    .where('expires_at', '<', sql<Date>`now() - interval '1 hour'`)
    .execute();
  await db.insertInto('wallet_challenges').values(row).execute();
  return challengeOf(site, row);
}

/**
 * Consumes the challenge (one UPDATE, so a replay or a race finds it used) and checks that the
 * wallet at `address` signed it. Any failure is the same 400, so nothing is learnt from probing.
 */
export async function verifyWalletProof(
  db: Kysely<DB>,
  site: ProofSite,
  expected: { purpose: WalletProofPurpose; userId: string | null },
  address: string,
  proof: WalletProof,
): Promise<void> {
  let query = db
    .updateTable('wallet_challenges')
    .set({ used_at: sql<Date>`now()` })
    .where('nonce', '=', proof.nonce)
    .where('purpose', '=', expected.purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`);
  query =
    expected.userId === null
      ? query.where('user_id', 'is', null)
      : query.where('user_id', '=', expected.userId);
  const row = await query
    .returning(['nonce', 'purpose', 'issued_at', 'expires_at'])
    .executeTakeFirst();
  if (!row) throw new AppError(400, 'invalid_wallet_proof');
  const checksummed = getAddress(address.toLowerCase());
  let signer: string;
  try {
    signer = verifyMessage(
      walletProofMessage(challengeOf(site, row), checksummed),
      proof.signature,
    );
  } catch {
    throw new AppError(400, 'invalid_wallet_proof');
  }
  if (signer !== checksummed) throw new AppError(400, 'invalid_wallet_proof');
}
