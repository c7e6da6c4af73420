// A member's claim data (their leaf in the chain's current round, its proof read from the stored
// tree) and their token figures (entitlement, round, chain balances, SPEC §4 claim split).
import { bytesToHex, claimSplit, siblingIndices, type ClaimData, type MemberTokens } from '@crw/core';
import { sql, type Kysely } from 'kysely';
import type { Chain } from '../chain/chain';
import type { DB } from '../db/schema';

export async function currentRound(chain: Chain): Promise<number> {
  return Number(await chain.distributor.getFunction('currentIndex')());
}

export async function claimData(db: Kysely<DB>, round: number, userId: string): Promise<ClaimData> {
  const entry = await db
    .selectFrom('distribution_entries')
    .select(['cumulative_amount', 'tree_index'])
    .where('round_index', '=', round)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!entry) return { proof: [], distributedTokens: '0', distributionIndex: round };
  const siblings = siblingIndices(entry.tree_index);
  const result = await sql<{ node: Uint8Array }>`
    SELECT substring(r.nodes FROM s.i * 32 + 1 FOR 32) AS node
    FROM distribution_rounds r, unnest(${siblings}::int[]) WITH ORDINALITY AS s(i, n)
    WHERE r.round_index = ${round}
    ORDER BY s.n`.execute(db);
  return {
    proof: result.rows.map((row) => bytesToHex(row.node)),
    distributedTokens: entry.cumulative_amount,
    distributionIndex: round,
  };
}

async function orNull<T>(read: Promise<T>): Promise<T | null> {
  return read.catch(() => null);
}

export async function memberTokens(
  db: Kysely<DB>,
  chain: Chain,
  userId: string,
  address: string,
  remePrice: string,
): Promise<MemberTokens> {
  const amounts = await db
    .selectFrom('user_token_distributions')
    .select(['signup_tokens', 'earned_referral_tokens'])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  const round = await orNull(currentRound(chain));
  const [data, claimed, remeHeld, ethBalance] = await Promise.all([
    round === null ? null : claimData(db, round, userId),
    orNull(chain.token.getFunction('claimedOf')(address) as Promise<bigint>),
    orNull(chain.token.getFunction('balanceOf')(address) as Promise<bigint>),
    orNull(chain.provider.getBalance(address)),
  ]);
  const signupTokens = BigInt(amounts.signup_tokens);
  const entitled = signupTokens + BigInt(amounts.earned_referral_tokens);
  const distributed = BigInt(data?.distributedTokens ?? 0);
  const forClaiming = claimed === null || distributed <= claimed ? 0n : distributed - claimed;
  const split = claimSplit({ forClaiming, signupTokens, earnedSignupTokens: claimed === null ? 0n : claimed < signupTokens ? claimed : signupTokens });
  return {
    entitled: entitled.toString(),
    incoming: (entitled > distributed ? entitled - distributed : 0n).toString(),
    distributed: distributed.toString(),
    claimed: claimed?.toString() ?? null,
    forClaiming: forClaiming.toString(),
    claimSplit: { signup: split.signup.toString(), referral: split.referral.toString() },
    signupTokens: signupTokens.toString(),
    remeHeld: remeHeld?.toString() ?? null,
    ethBalance: ethBalance?.toString() ?? null,
    remePrice,
  };
}
